/**
 * DS records as an administrator knows them: algorithms and digest types by name (the IANA
 * registry, with RFC 8624's advice on which to use), and a whole DS line as a DNS operator
 * or `dnssec-dsfromkey` gives it, read into its four fields.
 */

/** A DS record as the form edits it. */
export interface DsInput {
  keytag: number
  alg: number
  digesttype: number
  digest: string
}

/** RFC 8624's advice for making new signatures or DS records. */
export type DnssecAdvice = 'must' | 'recommended' | 'may' | 'not-recommended' | 'must-not' | 'private'

export interface DnssecNumber {
  n: number
  name: string
  advice: DnssecAdvice
}

/** DNSSEC algorithm numbers (RFC 8624 section 3.1, "DNSSEC Signing"; 253 and 254 are private). */
export const DNSSEC_ALGORITHMS: readonly DnssecNumber[] = [
  { n: 1, name: 'RSAMD5', advice: 'must-not' },
  { n: 3, name: 'DSA', advice: 'must-not' },
  { n: 5, name: 'RSASHA1', advice: 'not-recommended' },
  { n: 6, name: 'DSA-NSEC3-SHA1', advice: 'must-not' },
  { n: 7, name: 'RSASHA1-NSEC3-SHA1', advice: 'not-recommended' },
  { n: 8, name: 'RSASHA256', advice: 'must' },
  { n: 10, name: 'RSASHA512', advice: 'not-recommended' },
  { n: 12, name: 'ECC-GOST', advice: 'must-not' },
  { n: 13, name: 'ECDSAP256SHA256', advice: 'must' },
  { n: 14, name: 'ECDSAP384SHA384', advice: 'may' },
  { n: 15, name: 'ED25519', advice: 'recommended' },
  { n: 16, name: 'ED448', advice: 'may' },
  { n: 253, name: 'PRIVATEDNS', advice: 'private' },
  { n: 254, name: 'PRIVATEOID', advice: 'private' },
]

/** DS digest types (RFC 8624 section 3.3, "DNSSEC Delegation"). The service takes 1, 2 and 4. */
export const DS_DIGEST_TYPES: readonly DnssecNumber[] = [
  { n: 1, name: 'SHA-1', advice: 'must-not' },
  { n: 2, name: 'SHA-256', advice: 'must' },
  { n: 3, name: 'GOST R 34.11-94', advice: 'must-not' },
  { n: 4, name: 'SHA-384', advice: 'may' },
]

export const algorithm = (n: number) => DNSSEC_ALGORITHMS.find((a) => a.n === n)
export const digestType = (n: number) => DS_DIGEST_TYPES.find((d) => d.n === n)

/** An algorithm written as its number or its mnemonic (ECDSAP256SHA256). */
function algorithmNumber(token: string): number | undefined {
  if (/^\d{1,3}$/.test(token)) return Number(token)
  return DNSSEC_ALGORITHMS.find((a) => a.name === token.toUpperCase())?.n
}

/**
 * One DS record from a line: "12345 13 2 49FD…", or the whole resource record
 * "example.com. 3600 IN DS 12345 13 2 49FD…"; the digest may be split in groups. Undefined when
 * the line is not a DS record.
 */
export function parseDsLine(line: string): DsInput | undefined {
  const tokens = line.replace(/;.*$/, '').replace(/[()]/g, ' ').trim().split(/\s+/).filter(Boolean)
  const ds = tokens.findIndex((tk) => tk.toUpperCase() === 'DS')
  const rest = ds >= 0 ? tokens.slice(ds + 1) : tokens
  const [tag, alg, type, ...digestParts] = rest
  if (tag === undefined || alg === undefined || type === undefined || digestParts.length === 0) return undefined
  const keytag = /^\d{1,5}$/.test(tag) ? Number(tag) : undefined
  const algNumber = algorithmNumber(alg)
  const digesttype = /^\d{1,3}$/.test(type) ? Number(type) : undefined
  const digest = digestParts.join('')
  if (keytag === undefined || algNumber === undefined || digesttype === undefined || !/^[0-9a-f]+$/i.test(digest))
    return undefined
  return { keytag, alg: algNumber, digesttype, digest }
}

/**
 * Every DS record of a pasted text, one per line (a record in parentheses may span lines);
 * empty and comment lines are skipped. Undefined when a line is not a DS record, so a paste is
 * taken whole or not at all.
 */
export function parseDsLines(text: string): DsInput[] | undefined {
  const joined = text.replace(/\([^)]*\)/g, (group) => group.replace(/\s+/g, ' '))
  const lines = joined.split(/\r?\n/).filter((l) => l.replace(/;.*$/, '').trim() !== '')
  if (lines.length === 0) return undefined
  const records: DsInput[] = []
  for (const line of lines) {
    const r = parseDsLine(line)
    if (!r) return undefined
    records.push(r)
  }
  return records
}
