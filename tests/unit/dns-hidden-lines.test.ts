/**
 * Issue 41, point 2: no line hides a record. The one rule (shared/dns/hidden-characters) as the
 * window's editor (its table and raw text, validateRows) and a bulk change apply it: a lone CR,
 * U+2028/U+2029, NEL and every C0 control but TAB are refused with their line and column; a
 * CRLF line and a TAB are not.
 */
import { describe, expect, it } from 'vitest'
import { applyBulkChange, checkChange } from '@shared/dns/bulk-change'
import { escapeHidden } from '@shared/dns/hidden-characters'
import { editRecord, parse } from '@shared/dns/records'
import { validateRows } from '@shared/dns/validate'

const zone = ['a @ 192.0.2.1', 'a www 192.0.2.2', 'mx mail.example.net. 10'].join('\n')
const hidden = (issues: { code: string; params?: unknown }[]) =>
  issues.filter((i) => i.code === 'dns.hiddenCharacter').map((i) => i.params)

describe('the editor’s raw text and table', () => {
  it.each([
    ['a lone CR', '\r', 'U+000D'],
    ['U+2028', '\u2028', 'U+2028'],
    ['U+2029', '\u2029', 'U+2029'],
    ['NEL', '\u0085', 'U+0085'],
    ['NUL', '\u0000', 'U+0000'],
    ['ESC', '\u001b', 'U+001B'],
    ['DEL', '\u007f', 'U+007F'],
  ])('refuses a line with %s, naming its line and column', (_what, ch, character) => {
    const raw = `${zone}\ntxt @ ok${ch}ns @ ns.evil.example.`
    expect(hidden(validateRows(parse(raw)))).toEqual([{ line: 4, column: 9, character }])
  })

  it('refuses a value typed in the table with a line separator in it', () => {
    const rows = parse(zone)
    const second = rows[1]
    if (second?.kind !== 'record') throw new Error('the zone’s second line is a record')
    rows[1] = editRecord(second, { value: '192.0.2.2\u2028ns @ ns.evil.example.' })
    expect(hidden(validateRows(rows))).toEqual([{ line: 2, column: 16, character: 'U+2028' }])
  })

  it('takes a CRLF line and a TAB as they are', () => {
    expect(hidden(validateRows(parse(`a @ 192.0.2.1\r\na\twww\t192.0.2.2\r\ntxt @ x`)))).toEqual([])
  })
})

describe('a bulk change', () => {
  it('refuses a value with a hidden character before any zone is read', () => {
    expect(checkChange({ kind: 'add', type: 'txt', host: '@', value: 'ok\u0000' })).toEqual([
      { code: 'dns.hiddenCharacter', params: { line: 1, column: 3, character: 'U+0000' }, field: 'value' },
    ])
    expect(checkChange({ kind: 'replace', from: '192.0.2.2', to: '192.0.2.3\rns @ x.' })[0]).toMatchObject({
      code: 'dns.hiddenCharacter',
      field: 'to',
    })
  })

  it('refuses a zone that already holds such a line: the save would write it again', () => {
    const change = applyBulkChange(`${zone}\ntxt @ a\u2028b`, {
      kind: 'add',
      type: 'a',
      host: 'new',
      value: '192.0.2.9',
    })
    expect(change.issues).toEqual([
      { code: 'dns.hiddenCharacter', params: { line: 4, column: 8, character: 'U+2028' }, record: 'txt @ a\u2028b' },
    ])
  })
})

describe('what the command prints', () => {
  it('escapes control characters, C1 controls, line separators and bidi overrides; keeps TAB and line feed', () => {
    expect(escapeHidden('a\u001b[2J\rb\u2028c\u0085d\u202ee\tf\ng')).toBe(
      'a\\u001b[2J\\u000db\\u2028c\\u0085d\\u202ee\tf\ng',
    )
    // In a JSON string the escapes read back as the characters.
    expect(JSON.parse(escapeHidden(JSON.stringify({ m: 'x\u2028y\u0085' })))).toEqual({ m: 'x\u2028y\u0085' })
  })
})
