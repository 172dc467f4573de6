/**
 * The syntax of the TXT and CAA values the mail and certificate world reads: SPF (RFC 7208),
 * DMARC (RFC 7489), DKIM keys (RFC 6376) and CAA (RFC 8659). Each check returns the first
 * problem as a code word (worded by the catalogue) and the part it is about, or undefined.
 */

export interface SyntaxProblem {
  /** What is wrong, one word: the catalogue's `health.problem.<problem>`. */
  problem: string
  /** The term, tag or part it is about, as written. */
  part: string
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/
const IPV6 = /^[0-9a-f:]+(:\d+\.\d+\.\d+\.\d+)?$/i
const DOMAIN_SPEC = /^[!-~]+$/
const PREFIX = /^\d{1,3}$/

export const isSpf = (text: string): boolean => /^v=spf1(\s|$)/i.test(text.trim())

/** The DNS-querying terms of an SPF record (RFC 7208 §4.6.4): include, a, mx, ptr, exists, and redirect=. */
export interface SpfTerms {
  /** Terms that cost a lookup here. */
  lookups: number
  includes: string[]
  redirect: string | undefined
}

const ipWithPrefix = (value: string, ip: RegExp, max: number) => {
  const [addr, prefix, extra] = value.split('/')
  if (extra !== undefined || !addr || !ip.test(addr)) return false
  return prefix === undefined || (PREFIX.test(prefix) && Number(prefix) <= max)
}

/** The first syntax problem of an SPF record, or its terms. */
export function readSpf(text: string): { problem: SyntaxProblem } | { terms: SpfTerms } {
  const words = text.trim().split(/\s+/).slice(1)
  const terms: SpfTerms = { lookups: 0, includes: [], redirect: undefined }
  const seen = new Set<string>()
  for (const word of words) {
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(word)
    if (modifier) {
      const name = (modifier[1] ?? '').toLowerCase()
      const value = modifier[2] ?? ''
      if ((name === 'redirect' || name === 'exp') && seen.has(name))
        return { problem: { problem: 'spfModifierTwice', part: word } }
      seen.add(name)
      if ((name === 'redirect' || name === 'exp') && !DOMAIN_SPEC.test(value))
        return { problem: { problem: 'spfTerm', part: word } }
      if (name === 'redirect') {
        terms.redirect = value
        terms.lookups++
      }
      continue
    }
    const m = /^([+\-~?]?)([a-z0-9]+)(?::(.*?))?(\/.*)?$/i.exec(word)
    if (!m) return { problem: { problem: 'spfTerm', part: word } }
    const mech = (m[2] ?? '').toLowerCase()
    const arg = m[3]
    const cidr = m[4]
    switch (mech) {
      case 'all':
        if (arg !== undefined || cidr !== undefined) return { problem: { problem: 'spfTerm', part: word } }
        break
      case 'include':
      case 'exists':
        if (!arg || cidr !== undefined || !DOMAIN_SPEC.test(arg)) return { problem: { problem: 'spfTerm', part: word } }
        if (mech === 'include') terms.includes.push(arg)
        terms.lookups++
        break
      case 'a':
      case 'mx':
        if (
          (arg !== undefined && !DOMAIN_SPEC.test(arg)) ||
          (cidr !== undefined && !/^\/\d{1,2}(\/\/\d{1,3})?$|^\/\/\d{1,3}$/.test(cidr))
        ) {
          return { problem: { problem: 'spfTerm', part: word } }
        }
        terms.lookups++
        break
      case 'ptr':
        if (cidr !== undefined) return { problem: { problem: 'spfTerm', part: word } }
        terms.lookups++
        break
      case 'ip4':
        if (!arg || !ipWithPrefix(`${arg}${cidr ?? ''}`, IPV4, 32))
          return { problem: { problem: 'spfAddress', part: word } }
        break
      case 'ip6':
        if (!arg || !ipWithPrefix(`${arg}${cidr ?? ''}`, IPV6, 128))
          return { problem: { problem: 'spfAddress', part: word } }
        break
      default:
        return { problem: { problem: 'spfUnknownMechanism', part: word } }
    }
  }
  return { terms }
}

/** `tag=value` pairs separated by `;` (DMARC and DKIM), tags lower-cased; undefined when one is not a pair. */
function tagList(text: string): { tags: [string, string][]; bad?: string } {
  const tags: [string, string][] = []
  for (const raw of text.split(';')) {
    const part = raw.trim()
    if (part === '') continue
    const at = part.indexOf('=')
    if (at <= 0) return { tags, bad: part }
    tags.push([part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()])
  }
  return { tags }
}

const POLICIES = new Set(['none', 'quarantine', 'reject'])

/** The first problem of a DMARC record (a TXT at `_dmarc`). */
export function dmarcProblem(text: string): SyntaxProblem | undefined {
  const { tags, bad } = tagList(text)
  if (bad !== undefined) return { problem: 'tagNotPair', part: bad }
  const first = tags[0]
  if (!first || first[0] !== 'v' || first[1] !== 'DMARC1')
    return { problem: 'dmarcVersion', part: first ? `${first[0]}=${first[1]}` : text }
  const map = new Map(tags)
  const p = map.get('p')
  if (p === undefined || tags[1]?.[0] !== 'p') return { problem: 'dmarcPolicyMissing', part: 'p' }
  for (const name of ['p', 'sp'] as const) {
    const v = map.get(name)
    if (v !== undefined && !POLICIES.has(v.toLowerCase())) return { problem: 'dmarcPolicy', part: `${name}=${v}` }
  }
  const pct = map.get('pct')
  if (pct !== undefined && !(/^\d{1,3}$/.test(pct) && Number(pct) <= 100))
    return { problem: 'dmarcValue', part: `pct=${pct}` }
  for (const name of ['adkim', 'aspf'] as const) {
    const v = map.get(name)
    if (v !== undefined && !/^[rs]$/i.test(v)) return { problem: 'dmarcValue', part: `${name}=${v}` }
  }
  for (const name of ['rua', 'ruf'] as const) {
    const v = map.get(name)
    if (
      v !== undefined &&
      !v.split(',').every((u) => /^mailto:[^@\s]+@[^@\s]+$/i.test(u.trim().replace(/!\d+[kmgt]?$/i, '')))
    ) {
      return { problem: 'dmarcAddress', part: `${name}=${v}` }
    }
  }
  return undefined
}

/** The first problem of a DKIM key record (a TXT under `_domainkey`). */
export function dkimProblem(text: string): SyntaxProblem | undefined {
  const { tags, bad } = tagList(text)
  if (bad !== undefined) return { problem: 'tagNotPair', part: bad }
  const map = new Map(tags)
  const v = map.get('v')
  if (v !== undefined && (tags[0]?.[0] !== 'v' || v !== 'DKIM1')) return { problem: 'dkimVersion', part: `v=${v}` }
  const k = map.get('k')
  if (k !== undefined && !/^(rsa|ed25519)$/i.test(k)) return { problem: 'dkimKeyType', part: `k=${k}` }
  const p = map.get('p')
  if (p === undefined) return { problem: 'dkimKeyMissing', part: 'p' }
  // An empty p= is a revoked key (RFC 6376 §3.6.1): valid.
  const key = p.replace(/\s+/g, '')
  if (key !== '' && !/^[A-Za-z0-9+/]+={0,2}$/.test(key)) return { problem: 'dkimKey', part: 'p' }
  return undefined
}

const CAA_TAGS = new Set(['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc', 'contactemail', 'contactphone'])

/** The first problem of a CAA value (`flags tag "value"`). */
export function caaProblem(value: string): SyntaxProblem | undefined {
  const m = /^(\S+)\s+(\S+)\s+(.*)$/.exec(value.trim())
  if (!m) return { problem: 'caaShape', part: value }
  const flags = m[1] ?? ''
  const tag = m[2] ?? ''
  const raw = (m[3] ?? '').trim()
  if (!/^\d{1,3}$/.test(flags) || Number(flags) > 255) return { problem: 'caaFlags', part: flags }
  if (!/^[a-z0-9]+$/i.test(tag)) return { problem: 'caaTag', part: tag }
  if (!CAA_TAGS.has(tag.toLowerCase())) return { problem: 'caaTag', part: tag }
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(raw)
  const text = quoted ? (quoted[1] ?? '') : raw
  const t = tag.toLowerCase()
  if (t === 'issue' || t === 'issuewild' || t === 'issuemail') {
    const [issuer, ...params] = text.split(';')
    const name = (issuer ?? '').trim()
    if (name !== '' && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(name))
      return { problem: 'caaIssuer', part: name }
    for (const p of params)
      if (p.trim() !== '' && !/^\s*[a-z0-9]+\s*=\s*[!-:<-~]*\s*$/i.test(p))
        return { problem: 'caaParameter', part: p.trim() }
  }
  if (t === 'iodef' && !/^(mailto:[^@\s]+@[^@\s]+|https?:\/\/\S+)$/i.test(text))
    return { problem: 'caaIodef', part: text }
  return undefined
}
