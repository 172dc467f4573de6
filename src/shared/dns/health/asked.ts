/**
 * The health rules that need DNS: an SPF record's lookups counted through `include:` and
 * `redirect=` (RFC 7208 §4.6.4: more than 10 is a permanent error, the mail fails SPF), a
 * target with no address (dangling), and an MX or NS target outside the zone that is a CNAME.
 * Names inside the zone are read from the zone as it would be after the save; others are asked
 * of DNS through an asker (main/dns-health/resolver-asker.ts: node's resolver, bounded in time,
 * cached per run). Where the asker could not ask, the finding says so (`dns.unasked`) rather
 * than passing the record as healthy.
 */
import { txtText, type Row } from '../records'
import { inZone } from './names'
import {
  indexZone,
  planFindings,
  SEVERITY,
  spfAt,
  targetOf,
  zoneFindings,
  type HealthFinding,
  type HealthRule,
  type ZoneIndex,
} from './rules'
import { isSpf, readSpf } from './syntax'

/** An answer: the values (none: the name or type does not exist), or why DNS could not be asked. */
export type Asked = { ok: true; values: string[] } | { ok: false; reason: string }

export interface DnsAsker {
  /** TXT values of a name, each value's strings joined. */
  txt(name: string): Promise<Asked>
  /** A and AAAA addresses of a name (through CNAMEs, as a resolver answers). */
  addresses(name: string): Promise<Asked>
  /** The CNAME target of a name, if it is one. */
  cname(name: string): Promise<Asked>
}

/** RFC 7208 §4.6.4. */
const SPF_LOOKUP_LIMIT = 10
/**
 * How deep include and redirect chains are followed. A loop ends here too: a receiver evaluates
 * every include again, a loop's included records as well, until the lookups pass the limit
 * (RFC 7208 §4.6.4), so a loop is counted, not skipped (the asker asks each name once anyway).
 */
const SPF_DEPTH_LIMIT = 10

const make = (rule: HealthRule, record: HealthFinding['record'], params: HealthFinding['params']): HealthFinding => ({
  rule,
  severity: SEVERITY[rule],
  record,
  params,
})

interface Count {
  lookups: number
  unasked?: { name: string; reason: string }
}

/** Lookups of an SPF text, through its includes and redirect, stopping once over the limit. */
async function countSpf(text: string, index: ZoneIndex, ask: DnsAsker, depth: number): Promise<Count> {
  const read = readSpf(text)
  if ('problem' in read) return { lookups: 0 }
  let lookups = read.terms.lookups
  const next = [...read.terms.includes, ...(read.terms.redirect ? [read.terms.redirect] : [])]
  for (const raw of next) {
    if (lookups > SPF_LOOKUP_LIMIT || depth >= SPF_DEPTH_LIMIT) break
    const name = raw.toLowerCase().replace(/\.$/, '')
    // A macro (%{i}) names no fixed record.
    if (name.includes('%')) continue
    let texts: string[]
    if (inZone(name, index.zone)) texts = spfAt(index, name)
    else {
      const answer = await ask.txt(name)
      if (!answer.ok) return { lookups, unasked: { name, reason: answer.reason } }
      texts = answer.values.filter(isSpf)
    }
    const first = texts[0]
    if (first === undefined) continue
    const inner = await countSpf(first, index, ask, depth + 1)
    lookups += inner.lookups
    if (inner.unasked) return { lookups, unasked: inner.unasked }
  }
  return { lookups }
}

/** Runs `jobs` with at most `limit` at a time. */
export async function bounded<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array<T>(jobs.length)
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++
      const job = jobs[i]
      if (job) out[i] = await job()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker))
  return out
}

/** The findings that need DNS, for the zone as `index` holds it. */
async function askedFindings(index: ZoneIndex, ask: DnsAsker, concurrency = 8): Promise<HealthFinding[]> {
  const jobs: (() => Promise<HealthFinding[]>)[] = []
  for (const r of index.rows) {
    const record = { type: r.type, host: r.host, value: r.value }
    if (r.type === 'txt') {
      const text = txtText(r.value.trim())
      if (!isSpf(text)) continue
      jobs.push(async () => {
        const counted = await countSpf(text, index, ask, 0)
        if (counted.lookups > SPF_LOOKUP_LIMIT)
          return [make('spf.lookups', record, { count: counted.lookups, limit: SPF_LOOKUP_LIMIT })]
        if (counted.unasked) return [make('dns.unasked', record, { check: 'spf.lookups', ...counted.unasked })]
        return []
      })
      continue
    }
    const target = targetOf(r, index.zone)
    if (!target) continue
    if (inZone(target, index.zone)) {
      // Inside the zone the rows say it: a name with no record at all is dangling (a delegated name's NS aside).
      const here = index.byName.get(target) ?? []
      if (here.length === 0 && !isDelegatedBelow(index, target))
        jobs.push(() => Promise.resolve([make('target.dangling', record, { target })]))
      continue
    }
    jobs.push(async () => {
      const found: HealthFinding[] = []
      const addresses = await ask.addresses(target)
      if (!addresses.ok)
        return [make('dns.unasked', record, { check: 'target.dangling', name: target, reason: addresses.reason })]
      if (addresses.values.length === 0) found.push(make('target.dangling', record, { target }))
      if (r.type === 'mx' || r.type === 'ns') {
        const cname = await ask.cname(target)
        if (!cname.ok)
          found.push(make('dns.unasked', record, { check: `${r.type}.cname`, name: target, reason: cname.reason }))
        else if (cname.values.length > 0)
          found.push(make(r.type === 'mx' ? 'mx.cname' : 'ns.cname', record, { target }))
      }
      return found
    })
  }
  return (await bounded(jobs, concurrency)).flat()
}

/** Whether a name lies under a delegation of the zone (an NS record at a name other than the apex). */
function isDelegatedBelow(index: ZoneIndex, name: string): boolean {
  for (let at = name; at.length > index.zone.length; at = at.slice(at.indexOf('.') + 1)) {
    if ((index.byName.get(at) ?? []).some((r) => r.type === 'ns')) return true
    if (!at.includes('.')) break
  }
  return false
}

/** Every finding of one zone: offline, and asked of DNS when an asker is given. */
export async function zoneHealth(rows: readonly Row[], zone: string, ask?: DnsAsker): Promise<HealthFinding[]> {
  const index = indexZone(rows, zone)
  return [...zoneFindings(index), ...(ask ? await askedFindings(index, ask) : [])]
}

/**
 * The health of a plan: the findings of the zone as it would be after the save, the ones the
 * save introduces first. The same asker (one cache) serves both versions.
 */
export async function planHealth(
  before: readonly Row[],
  after: readonly Row[],
  zone: string,
  ask?: DnsAsker,
): Promise<HealthFinding[]> {
  const [was, will] = await Promise.all([zoneHealth(before, zone, ask), zoneHealth(after, zone, ask)])
  return planFindings(was, will)
}
