/**
 * Served against saved: each of a domain's delegated nameservers is asked directly (as the ACME
 * wait does) for every name and type the service holds, and what it serves is held against what
 * is saved. Three things go wrong:
 * - the delegation is elsewhere: no nameserver serves anything the service holds (or none is
 *   authoritative), so changes made here are not served at all;
 * - a nameserver is behind or answers differently: the nameservers disagree, and some serve
 *   something other than what is saved;
 * - the service rewrote a record: every nameserver agrees, on something other than what is saved.
 * Findings are codes and parameters (`served.*` in the catalogue).
 */
import { Resolver } from 'node:dns/promises'
import { parse, splitValue, txtText, type RecordRow } from '@shared/dns/records'
import { asciiName } from '@shared/dns/ascii-name'
import { servedAs } from '@shared/dns/bind'
import { hostName, targetName } from '@shared/dns/health/names'
import type { Nameserver } from './nameservers'
import { AppError } from '../base/app-error'
import type { ServedFinding, ServedReport } from '@shared/dns/health/served'

/** The types compared: the ones a nameserver answers by name and the service holds by line. */
export const SERVED_TYPES = ['a', 'aaaa', 'txt', 'cname', 'mx'] as const
export type ServedType = (typeof SERVED_TYPES)[number]
const isServedType = (t: string): t is ServedType => SERVED_TYPES.some((s) => s === t)

/**
 * What a nameserver answered: values (none: it holds none; `noName`: not even the name, NXDOMAIN),
 * or why it gave no answer (EREFUSED: not authoritative).
 */
export type NsAnswer = { ok: true; values: string[]; noName?: boolean } | { ok: false; reason: string }
export type NsAsk = (ns: Nameserver, name: string, type: ServedType) => Promise<NsAnswer>

/** A saved record's value as a nameserver gives it back (lower-case names without the dot, in punycode, TXT unquoted, MX as "priority target"). */
function savedValue(r: Pick<RecordRow, 'type' | 'value'>, zone: string): string {
  switch (r.type) {
    case 'txt':
      return txtText(r.value.trim())
    case 'cname':
      return asciiName(targetName(r.value, zone))
    case 'mx': {
      const p = splitValue('mx', r.value)
      return `${Number(p.priority)} ${asciiName(targetName(p.target ?? '', zone))}`
    }
    case 'aaaa':
      return r.value.trim().toLowerCase()
    default:
      return r.value.trim()
  }
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN'])
/** The resolver's code for NXDOMAIN: the name itself does not exist there. */
const NO_NAME = 'ENOTFOUND'
/** The resolver's code for REFUSED: the nameserver does not serve the zone. */
const REFUSED = 'EREFUSED'
const codeOf = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown'

/**
 * Asks a nameserver itself through node's resolver (one try, bounded in time): one resolver, and
 * its sockets, per set of addresses, for every zone asked (names of one server share it).
 */
export function resolverNsAsk(timeoutMs = 2000): NsAsk {
  const resolvers = new Map<string, Resolver>()
  const resolverOf = (ns: Nameserver) => {
    const key = ns.servers.join(',')
    let r = resolvers.get(key)
    if (!r) {
      r = new Resolver({ timeout: timeoutMs, tries: 1 })
      r.setServers(ns.servers)
      resolvers.set(key, r)
    }
    return r
  }
  return async (ns, name, type) => {
    const r = resolverOf(ns)
    try {
      switch (type) {
        case 'a':
          return { ok: true, values: await r.resolve4(name) }
        case 'aaaa':
          return { ok: true, values: (await r.resolve6(name)).map((v) => v.toLowerCase()) }
        case 'txt':
          // The resolver hands each string's bytes over as Latin-1; a TXT record's text is UTF-8.
          return {
            ok: true,
            values: (await r.resolveTxt(name)).map((chunks) => Buffer.from(chunks.join(''), 'latin1').toString('utf8')),
          }
        case 'cname':
          return { ok: true, values: (await r.resolveCname(name)).map((v) => v.toLowerCase().replace(/\.$/, '')) }
        case 'mx':
          return {
            ok: true,
            values: (await r.resolveMx(name)).map(
              (m) => `${m.priority} ${m.exchange.toLowerCase().replace(/\.$/, '')}`,
            ),
          }
      }
    } catch (err) {
      const code = codeOf(err)
      if (code === NO_NAME) return { ok: true, values: [], noName: true }
      return ABSENT.has(code) ? { ok: true, values: [] } : { ok: false, reason: code }
    }
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

interface RrSet {
  name: string
  type: ServedType
  values: string[]
}

/**
 * The saved zone as sets of values by name and type (only the types compared), as nameservers
 * serve it: every line the service serves (the raw `mx @ <server> <priority>` included), names in
 * punycode (the form DNS asks in), and a value written twice served once.
 */
function savedSets(recordsText: string, domain: string): RrSet[] {
  const sets = new Map<string, RrSet>()
  for (const row of parse(recordsText)) {
    const r = servedAs(row)
    if (!r) continue
    const type = r.type
    if (!isServedType(type)) continue
    const name = asciiName(hostName(type === 'mx' ? '@' : r.host, domain))
    const key = `${name} ${type}`
    const set = sets.get(key) ?? { name, type, values: [] }
    const value = savedValue(r, domain)
    if (!set.values.includes(value)) set.values.push(value)
    sets.set(key, set)
  }
  return [...sets.values()]
}

export interface ServedInput {
  domain: string
  records: string
  nameservers: Nameserver[]
  unresolved: { name: string; reason: string }[]
}

/** Compares what each nameserver serves with what the service holds. */
export async function servedAgainstSaved(input: ServedInput, ask: NsAsk, signal?: AbortSignal): Promise<ServedReport> {
  const findings: ServedFinding[] = input.unresolved.map((u) => ({
    code: 'served.unresolved',
    params: { ns: u.name, reason: u.reason },
  }))
  const sets = savedSets(input.records, input.domain)
  let asked = 0
  // answers[set][ns]
  const answers: NsAnswer[][] = []
  // What an answer implies of the zone's other questions to the same nameserver, not asked again:
  // a name it says does not exist (NXDOMAIN) holds no type there, and a nameserver that refuses
  // (it does not serve the zone) refuses every name of it.
  const refusal: (NsAnswer | undefined)[] = input.nameservers.map(() => undefined)
  const noNames = input.nameservers.map(() => new Set<string>())
  for (const set of sets) {
    if (signal?.aborted) break
    answers.push(
      await Promise.all(
        input.nameservers.map(async (ns, j): Promise<NsAnswer> => {
          const implied = refusal[j] ?? (noNames[j]?.has(set.name) ? { ok: true, values: [], noName: true } : undefined)
          if (implied) return implied
          asked++
          const a = await ask(ns, set.name, set.type)
          if (!a.ok && a.reason === REFUSED) refusal[j] = a
          if (a.ok && a.noName) noNames[j]?.add(set.name)
          return a
        }),
      ),
    )
  }
  // Cancelled part way: what was asked so far is no comparison (nothing matched yet would read as
  // "delegated elsewhere", and be recorded in history as such).
  if (signal?.aborted) throw AppError.of('cancelled')
  const nsNames = input.nameservers.map((n) => n.name)
  // A nameserver that never answers is unreachable (or not authoritative: REFUSED); one that answers nothing saved serves another zone.
  const matchedAny = input.nameservers.map((_, j) =>
    answers.some((row, i) => {
      const a = row[j]
      return a?.ok === true && sameSet(a.values, sets[i]!.values)
    }),
  )
  const answeredAny = input.nameservers.map((_, j) => answers.some((row) => row[j]?.ok === true))
  // Delegated elsewhere only when a nameserver said so (answered, or refused the zone): when none
  // could be asked at all (no answer in time, the port closed), nothing is known of the zone.
  const spoke = input.nameservers.some((_, j) =>
    answers.some((row) => {
      const a = row[j]
      return a?.ok === true || a?.reason === REFUSED
    }),
  )
  if (sets.length > 0 && spoke && !matchedAny.some(Boolean)) {
    return {
      domain: input.domain,
      findings: [...findings, { code: 'served.delegatedElsewhere', params: { ns: nsNames.join(', ') } }],
      asked,
    }
  }
  input.nameservers.forEach((ns, j) => {
    if (answeredAny[j]) return
    const failure = answers.map((row) => row[j]).find((a): a is { ok: false; reason: string } => a?.ok === false)
    findings.push({ code: 'served.unreachable', params: { ns: ns.name, reason: failure?.reason ?? 'unknown' } })
  })
  sets.forEach((set, i) => {
    const row = answers[i] ?? []
    const served = row.flatMap((a, j) => (a.ok && answeredAny[j] ? [{ ns: nsNames[j] ?? '', values: a.values }] : []))
    const differing = served.filter((s) => !sameSet(s.values, set.values))
    if (differing.length === 0) return
    const type = set.type.toUpperCase()
    const allAgree = differing.length === served.length && served.every((s) => sameSet(s.values, served[0]!.values))
    if (allAgree && served[0]!.values.length > 0) {
      findings.push({
        code: 'served.rewritten',
        params: {
          ns: served.map((s) => s.ns).join(', '),
          type,
          name: set.name,
          value: set.values.join(' | '),
          served: served[0]!.values.join(' | '),
        },
      })
      return
    }
    for (const s of differing) {
      for (const v of set.values.filter((x) => !s.values.includes(x)))
        findings.push({ code: 'served.missing', params: { ns: s.ns, type, name: set.name, value: v } })
      for (const v of s.values.filter((x) => !set.values.includes(x)))
        findings.push({ code: 'served.extra', params: { ns: s.ns, type, name: set.name, value: v } })
    }
  })
  return { domain: input.domain, findings, asked }
}
