/**
 * Fills a catalogue message: {name} placeholders, and {name, plural, one {…} other {…}}
 * blocks chosen by the language's plural rules (Intl.PluralRules), with # standing for the
 * number. Exact cases such as =0 are tried first. Pure code, no Vue, so tests use it too.
 */
export type Params = Record<string, string | number>

const rulesCache = new Map<string, Intl.PluralRules>()
function pluralRules(locale: string): Intl.PluralRules {
  let r = rulesCache.get(locale)
  if (!r) rulesCache.set(locale, (r = new Intl.PluralRules(locale)))
  return r
}
// One number format per language: making one per message cost a fast scroll of 10,000 rows
// (each row's expiry flag is a plural message) most of its frame budget.
const numberCache = new Map<string, Intl.NumberFormat>()
function numberFormat(locale: string): Intl.NumberFormat {
  let f = numberCache.get(locale)
  if (!f) numberCache.set(locale, (f = new Intl.NumberFormat(locale)))
  return f
}

/**
 * Fills a plural message once, ahead of a screen that fills some in its first frame: the first
 * costs milliseconds (the language's plural rules and number format, the number format the most,
 * and the patterns' first use), which fell between the domain list's arrival and its first paint,
 * in its first expiry flag (issue 54).
 */
export function prepareMessageFormats(locale: string): void {
  formatMessage('{n, plural, =0 {} one {# {n}} other {#}}', { n: 1 }, locale)
}

/** Index of the brace that closes the one at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) return i
  }
  return -1
}

function plural(name: string, cases: string, params: Params, locale: string): string {
  const value = Number(params[name])
  const options = new Map<string, string>()
  let i = 0
  while (i < cases.length) {
    const m = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/.exec(cases.slice(i))
    if (!m) break
    const open = i + m[0].length - 1
    const close = closing(cases, open)
    if (close < 0) break
    options.set(m[1] ?? '', cases.slice(open + 1, close))
    i = close + 1
  }
  const chosen =
    options.get(`=${value}`) ??
    options.get(Number.isFinite(value) ? pluralRules(locale).select(value) : 'other') ??
    options.get('other')
  if (chosen === undefined) return `{${name}}`
  const number = Number.isFinite(value) ? numberFormat(locale).format(value) : String(params[name] ?? '')
  return formatMessage(chosen.replace(/#/g, number), params, locale)
}

export function formatMessage(template: string, params: Params = {}, locale = 'en'): string {
  if (!template.includes('{')) return template
  let out = ''
  let i = 0
  while (i < template.length) {
    const c = template[i] ?? ''
    if (c !== '{') {
      out += c
      i++
      continue
    }
    const close = closing(template, i)
    if (close < 0) {
      out += template.slice(i)
      break
    }
    const inner = template.slice(i + 1, close)
    const block = /^\s*(\w+)\s*,\s*plural\s*,([\s\S]*)$/.exec(inner)
    if (block) out += plural(block[1] ?? '', block[2] ?? '', params, locale)
    else if (/^\w+$/.test(inner) && inner in params) out += String(params[inner])
    else out += `{${inner}}`
    i = close + 1
  }
  return out
}
