/**
 * Characters that hide a zone line or split it where the eye does not see it: a carriage return
 * that does not end a line (a terminal redraws the line over itself, so a printed plan shows
 * another record than the one sent), the line and paragraph separators U+2028 / U+2029, NEL
 * (U+0085), and every other C0 control but TAB (NUL included). A zone line holding one is refused
 * wherever a zone is written (the editor and its raw text, the command's BIND and records files,
 * a bulk change, and main's zone rules), with the place named; one rule, here, for all of them.
 *
 * The command prints no such character raw either (file names, the service's text): escapeHidden.
 */

/** A TAB is a separator the service reads; a line feed ends the line; a CR right before it ends a CRLF line. */
const HIDDEN = /\r(?!\n|$)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029]/u

export const HIDDEN_CHARACTER_CODE = 'dns.hiddenCharacter'

/** Where the first hidden character of a zone text is: 1-based line and column, and the character as U+XXXX. */
export interface HiddenCharacter {
  line: number
  column: number
  character: string
}

const named = (ch: string): string => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * The first hidden character of a zone text, lines split at line feeds; undefined when there is
 * none. `firstLine` numbers the text's first line (a row of a zone that is checked alone).
 */
export function hiddenCharacterIn(text: string, firstLine = 1): HiddenCharacter | undefined {
  const m = HIDDEN.exec(text)
  if (!m) return undefined
  const before = text.slice(0, m.index)
  const lineStart = before.lastIndexOf('\n') + 1
  return {
    line: firstLine + (before.match(/\n/g)?.length ?? 0),
    column: m.index - lineStart + 1,
    character: named(m[0]),
  }
}

/** The issue of a zone text with a hidden character, as a code and its parameters (words in the catalogue). */
export function hiddenCharacterIssue(
  text: string,
  firstLine = 1,
): { code: typeof HIDDEN_CHARACTER_CODE; params: { line: number; column: number; character: string } } | undefined {
  const found = hiddenCharacterIn(text, firstLine)
  return found ? { code: HIDDEN_CHARACTER_CODE, params: { ...found } } : undefined
}

const HIDDEN_EVERYWHERE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu

/**
 * A text with every control character but TAB and line feed written as \uXXXX (a CR too; C1
 * controls, line separators and bidirectional overrides as well): what the command prints of file
 * names and the service's words, so no text it did not write can move the cursor, clear the
 * screen or redraw a line. In a JSON string the escapes read back as the characters.
 */
export function escapeHidden(text: string): string {
  return text.replace(HIDDEN_EVERYWHERE, (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)
}
