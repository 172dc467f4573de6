/**
 * What must never reach a log line, a diagnostics text or a file: the API keys this process
 * has seen, credentials in a URL and bearer tokens. Keys are learned as they are read or
 * stored (AccountService tells), so a key is redacted even where it appears unannounced.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi
const BEARER = /\b(bearer)\s+[^\s"',;]+/gi
/** Shorter secrets are not keys (and would redact ordinary words). */
export const MIN_SECRET_LENGTH = 8

/** Characters a regular expression reads as syntax (no `u` flag: any other escape would be an error there, not here). */
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g
const escaped = (text: string): string => text.replace(REGEX_SYNTAX, '\\$&')

/**
 * One character of a secret as a text may carry it: as it is, or percent-encoded (each byte
 * `%XX`, its hex digits in either case through the pattern's `i` flag, or encoded twice as
 * `%25XX`, a URL inside a URL); a space also as `+` (a form body).
 */
function charPattern(ch: string): string {
  const bytes = [...Buffer.from(ch, 'utf8')].map((b) => `%(?:25)?${b.toString(16).padStart(2, '0')}`).join('')
  return `(?:${escaped(ch)}|${bytes}${ch === ' ' ? '|\\+' : ''})`
}

/**
 * The forms a secret takes in text: as it is and trimmed; its bytes as hex and as base64
 * (standard and URL-safe, with and without padding), as a debugging proxy or a service that
 * quotes the header it was sent may write it. Each is matched in any letter case (a service that
 * folds what it quotes, hex in either case) and with any of its characters percent-encoded, in
 * upper- or lower-case hex (a service or a proxy that echoes the request URL writes / + = as
 * %2F %2B %3D, or %2f %2b %3d).
 */
function secretTexts(secret: string): string[] {
  const texts = new Set<string>()
  for (const s of [secret, secret.trim()]) {
    if (!s) continue
    const bytes = Buffer.from(s, 'utf8')
    const base64 = bytes.toString('base64')
    for (const form of [s, bytes.toString('hex'), base64, base64.replace(/=+$/, ''), bytes.toString('base64url')])
      texts.add(form)
  }
  // Longest first: a form that another begins with (base64 without its padding) never leaves the rest of the longer one behind.
  return [...texts].sort((a, b) => b.length - a.length)
}

/** A text's forms of one or more secrets: what redactedWith takes out of a text. */
export interface SecretMatcher {
  /** Every form, each character as it is or percent-encoded (global: for replace). */
  readonly pattern: RegExp
  /** Every form as it is, in any case: a text with no `%` and no match here holds none (a quick look before the slower pattern). */
  readonly plain: RegExp
}

/** A matcher for every form of each secret (longest secret first: a key that contains another is hidden whole); undefined when there is none. */
export function secretMatcher(secrets: readonly string[]): SecretMatcher | undefined {
  const forms = [...secrets]
    .sort((a, b) => b.length - a.length)
    .map(secretTexts)
    .filter((texts) => texts.length > 0)
  if (forms.length === 0) return undefined
  const pattern = forms.map((texts) => texts.map((form) => [...form].map(charPattern).join('')).join('|')).join('|')
  // A space may come as `+` (a form body), the one character besides `%...` that the plain forms would miss.
  const plain = forms.flatMap((texts) =>
    texts.flatMap((form) => (form.includes(' ') ? [form, form.replace(/ /g, '+')] : [form])),
  )
  return { pattern: new RegExp(pattern, 'gi'), plain: new RegExp(plain.map(escaped).join('|'), 'i') }
}

/** The text with every form the matcher knows replaced. */
export function redactedWith(text: string, matcher: SecretMatcher | undefined): string {
  if (!matcher || (!text.includes('%') && !matcher.plain.test(text))) return text
  return text.replace(matcher.pattern, '[redacted]')
}

export class Redactor {
  private readonly secrets = new Set<string>()
  private matcher: SecretMatcher | undefined

  /** A secret to hide from now on, in every form it may take (secretMatcher). */
  add(secret: string): void {
    if (secret.trim().length < MIN_SECRET_LENGTH || this.secrets.has(secret)) return
    this.secrets.add(secret)
    this.matcher = secretMatcher([...this.secrets])
  }

  redact(text: string): string {
    return redactedWith(text, this.matcher).replace(URL_CREDENTIALS, '$1[redacted]@').replace(BEARER, '$1 [redacted]')
  }
}
