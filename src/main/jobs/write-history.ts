/**
 * What the job runner tells history: before a zone is saved, the zone as it is now (read afresh,
 * kept as a snapshot, and compared with the records the change was planned from, when the job
 * says so); when an item ends, a history row with the operation, what was sent, how it ended,
 * its request ID, and the value before and after.
 *
 * A row the store could not take (its worker died, before or after writing it) is owed: every
 * item the journal says was sent and ended owes one, and `writeOwed` writes those the store does
 * not have (the store keeps one row per job item, so a row offered twice is kept once).
 */
import { z } from 'zod'
import type { ApiClient } from '../http'
import type { EndpointParams, WriteEndpointName } from '@shared/endpoints/table'
import type { ErrorData } from '@shared/errors'
import type { SubjectKind } from '@shared/portfolio/history'
import type { JobItemView, JobView, ZoneGuard } from '@shared/jobs'
import type { StoredListName, ZoneInput, ZoneKind } from '@shared/portfolio'
import type { PortfolioStoreAsync } from '../store/store-async'
import type { WriteRecord } from '../store/types'
import { toErrorData } from '../base/app-error'
import { readsBack } from './read-back'
import { factsOf } from './operations'
import { changedSincePlan } from './zone-rules'
import { LIST_SPECS } from '../store/lists'
import { endpoints } from '@shared/endpoints/table'
import { serverRefOf } from '@shared/service/server-ref'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'

export interface WriteObserver {
  /** Just before item i is sent. An error answered here means it is not sent, and fails with it. */
  beforeSend(
    job: JobView,
    i: number,
    params: EndpointParams<WriteEndpointName>,
    client: ApiClient,
    guard: ZoneGuard | undefined,
  ): Promise<ErrorData | undefined>
  /** Item i ended: done, failed or unknown; or an unknown one was settled from the service's log. */
  ended(job: JobView, i: number, opts: { fromLog: boolean }): Promise<void>
}

/** The observer, and what it owes the store: the rows of ended writes the store has not taken. */
export interface WriteHistory extends WriteObserver {
  /**
   * Writes the rows these jobs' ended items owe the store (a row missing; a row still "unknown"
   * for an item since settled), as `ended` would have written them; rows older than the history's
   * retention are not owed. Answers how many were written and settled; throws when the store
   * cannot take them, and what is owed stays owed.
   */
  writeOwed(jobs: readonly JobView[]): Promise<{ written: number; settled: number }>
}

/** An item that was sent and ended: what `ended` records a row of (an item refused before its send has none). */
const endedSend = (it: JobItemView): it is JobItemView & { state: 'done' | 'failed' | 'unknown'; sentAt: string } =>
  it.sentAt !== undefined && (it.state === 'done' || it.state === 'failed' || it.state === 'unknown')

const DAY_MS = 86_400_000

/** The members of a stored list's item that make a write's value before: the ones its refresh watches (drift compares the same). */
function beforeMembers(list: StoredListName): readonly string[] {
  return LIST_SPECS[list].watch?.fields ?? []
}

/** Whose history an item is: a domain, a free DNS zone, a server or a service IP (the operation's facts say which). */
export function subjectOf(
  operation: WriteEndpointName,
  params: Record<string, unknown>,
): { kind: SubjectKind; subject: string } {
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '')
  const kind = factsOf(operation).subject
  switch (kind) {
    case 'domain':
    case 'freedns':
      return { kind, subject: str(params.domain) || `${str(params.sld)}.${str(params.tld)}` }
    case 'server':
      return { kind, subject: `${str(params.kind)}:${str(params.webid)}` }
    case 'svcip':
      return { kind, subject: str(params.vipid) }
    case 'account':
      return { kind, subject: '' }
  }
}

/** What was sent, as the aspect's value (the parameters without the subject's own name). */
function sentValue(params: Record<string, unknown>): Record<string, unknown> {
  const { domain: _domain, kind: _kind, webid: _webid, vipid: _vipid, ...rest } = params
  return rest
}

/** Team mode: who this workstation's writes are by (undefined: single-workstation mode, no member). */
export type WriterOf = () => { member: string; workstation: string } | undefined

/** A server's id and name as the service's answer gives them (a server write answers with both). */
const serverAnswer = z.object({ webid: z.union([z.string(), z.number()]).transform(String), webname: z.string() })
const SERVER_LISTS = ['servers.list', 'servers.expiration.list', 'servers.autorenew.list'] as const
const isServerKind = (v: unknown): v is ServerKind => SERVER_KINDS.some((k) => k === v)

export function createWriteHistory(
  store: PortfolioStoreAsync,
  now: () => Date = () => new Date(),
  writer: WriterOf = () => undefined,
): WriteHistory {
  /** Per job item: the snapshot and the value before, taken in beforeSend. */
  const before = new Map<string, { snapshotId?: number | undefined; value?: unknown }>()
  /** Per job item: its row as `ended` made it, until the store has it (what writeOwed offers again, with its value before). */
  const owed = new Map<string, WriteRecord>()
  /** Per job item: its row being written by `ended` now. */
  const recording = new Map<string, Promise<void>>()
  const itemKey = (job: Pick<JobView, 'id'>, i: number) => `${job.id}#${i}`

  /** The zone as the service holds it now; the stored one when it cannot be read. */
  async function currentZone(
    client: ApiClient,
    accountId: string,
    kind: ZoneKind,
    domain: string,
  ): Promise<{ zone?: ZoneInput | undefined; fresh: boolean; error?: ErrorData | undefined }> {
    try {
      const answer =
        kind === 'dns' ? await client.call('domains.dns.get', { domain }) : await client.call('freedns.get', { domain })
      return { zone: zoneOfAnswer(kind, answer), fresh: true }
    } catch (err) {
      const stored = await store.getZone(accountId, kind, domain).catch(() => undefined)
      return { zone: stored, fresh: false, error: toErrorData(err) }
    }
  }

  /**
   * A server's history is kept under "kind:ref", where ref is what its links use (its name; its id
   * where the name cannot stand in an address): one server, one subject, whether the write named
   * it by id or by name. The name comes from the write's answer, else from the stored server
   * lists; a server the app has not listed keeps the reference the write used.
   */
  async function serverSubject(accountId: string, params: Record<string, unknown>, result: unknown): Promise<string> {
    const kind = params.kind
    const ref = typeof params.webid === 'string' || typeof params.webid === 'number' ? String(params.webid) : ''
    if (!isServerKind(kind)) return `${String(kind)}:${ref}`
    const answered = serverAnswer.safeParse(result)
    if (answered.success && answered.data.webname) return `${kind}:${serverRefOf(answered.data)}`
    try {
      for (const list of SERVER_LISTS) {
        const found = (await store.getList(accountId, list, { kind }))?.items.find(
          (s) => s.webid === ref || s.webname === ref,
        )
        if (found) return `${kind}:${serverRefOf(found)}`
      }
    } catch {
      // A store that cannot answer names no server: the reference the write used stands.
    }
    return `${kind}:${ref}`
  }

  return {
    async beforeSend(job, i, params, client, guard) {
      const kind = factsOf(job.operation).zone
      const p: Record<string, unknown> = { ...params }
      const at = now().toISOString()
      if (!kind) {
        // The value before, as the store last read it (account-wide lists), when it has one.
        const list = factsOf(job.operation).before
        const subject = subjectOf(job.operation, p)
        const fromEffect = effectBefore(job.items[i])
        if (list) {
          const item = await store.readListItem(job.accountId, list, subject.subject)
          if (item) {
            const value: Record<string, unknown> = {}
            for (const f of beforeMembers(list)) if (f in item) value[f] = Reflect.get(item, f)
            before.set(itemKey(job, i), { value })
          }
        } else if (fromEffect) before.set(itemKey(job, i), { value: fromEffect })
        else {
          const value = await settingNow(client, job.operation, p)
          if (value) before.set(itemKey(job, i), { value })
        }
        return undefined
      }
      const domain = typeof p.domain === 'string' || typeof p.domain === 'number' ? String(p.domain) : ''
      const current = await currentZone(client, job.accountId, kind, domain)
      if (guard) {
        // The change was planned from these records: anything else now means someone changed the
        // zone since, and sending would overwrite their change without the user seeing it.
        if (!current.fresh)
          return {
            kind: 'validation',
            code: 'dns.guardUnreadable',
            params: { domain },
            ...(current.error ? { status: current.error.status } : {}),
          }
        if (changedSincePlan(guard, current.zone))
          return { kind: 'busy', code: 'dns.changedSincePlan', params: { domain } }
      }
      if (!current.zone) return undefined
      try {
        // Fresh from the service: the store learns it too (and notes a change from outside, if any).
        if (current.fresh) await store.putZone(job.accountId, kind, domain, current.zone, at)
        const snapshotId = await store.history.snapshotBeforeSave(job.accountId, kind, domain, current.zone, at)
        before.set(itemKey(job, i), { snapshotId, value: current.zone })
        return undefined
      } catch (err) {
        // Restore promises a snapshot of the zone before every save from this app: a store that
        // cannot keep one (its worker down, a full disk) stops the save, which is not sent.
        const notKept: ErrorData = {
          kind: 'internal',
          code: 'store.snapshotNotKept',
          params: { domain, reason: toErrorData(err).code },
        }
        return notKept
      }
    },

    async ended(job, i, { fromLog }) {
      const it = job.items[i]
      if (!it || (it.state !== 'done' && it.state !== 'failed' && it.state !== 'unknown')) return
      if (fromLog) {
        if (it.state !== 'unknown') await store.history.settleWrite(job.id, i, it.state, it.requestId)
        return
      }
      const state = it.state
      const key = itemKey(job, i)
      const recorded = (async () => {
        const record = await recordOf(job, i, it, state, now().toISOString())
        before.delete(key)
        owed.set(key, record)
        await store.history.recordWrite(record)
        owed.delete(key)
        // The zone as saved is the zone now: kept, after the row above says this app made it.
        const zoneKind = factsOf(job.operation).zone
        if (zoneKind && state === 'done' && isZoneAnswer(it.result))
          await store.putZone(job.accountId, zoneKind, record.subject, zoneOfAnswer(zoneKind, it.result), record.at)
      })()
      recording.set(key, recorded)
      try {
        await recorded
      } finally {
        if (recording.get(key) === recorded) recording.delete(key)
      }
    },

    async writeOwed(jobs) {
      // Rows being written now end first: kept, or owed.
      await Promise.allSettled([...recording.values()])
      const cutoff = new Date(now().getTime() - (await store.history.retentionDays()) * DAY_MS).toISOString()
      const due = jobs.flatMap((job) =>
        job.items.flatMap((it, i) =>
          endedSend(it) && (owed.get(itemKey(job, i))?.at ?? it.sentAt) >= cutoff ? [{ job, i, it }] : [],
        ),
      )
      // A row no longer owed (its job gone from the journal, or older than the retention) is not kept for later.
      const dueKeys = new Set(due.map(({ job, i }) => itemKey(job, i)))
      for (const key of owed.keys()) if (!dueKeys.has(key) && !recording.has(key)) owed.delete(key)
      if (due.length === 0) return { written: 0, settled: 0 }
      const kept = new Map(
        (await store.history.keptWrites([...new Set(due.map((d) => d.job.id))])).map((k) => [
          itemKey({ id: k.jobId }, k.itemIndex),
          k.outcome,
        ]),
      )
      let written = 0
      let settled = 0
      for (const { job, i, it } of due) {
        const key = itemKey(job, i)
        // Ended meanwhile: `ended` writes its row (and owes it, if the store cannot take it).
        if (recording.has(key)) continue
        const outcome = kept.get(key)
        if (outcome === undefined) {
          // As `ended` made it (with its value before), else as it would have from the journal's item, at the time it was sent.
          const record = owed.get(key) ?? (await recordOf(job, i, it, it.state, it.sentAt))
          await store.history.recordWrite({ ...record, outcome: it.state, requestId: it.requestId ?? record.requestId })
          written++
        } else if (outcome === 'unknown' && it.state !== 'unknown') {
          await store.history.settleWrite(job.id, i, it.state, it.requestId)
          settled++
        }
        owed.delete(key)
        before.delete(key)
      }
      return { written, settled }
    },
  }

  /** Item i's row as `ended` records it; its value before, when beforeSend took one. */
  async function recordOf(
    job: JobView,
    i: number,
    it: JobItemView,
    outcome: WriteRecord['outcome'],
    at: string,
  ): Promise<WriteRecord> {
    const was = before.get(itemKey(job, i))
    const after = afterValue(job.operation, it)
    const { kind: subjectKind, subject: sent } = subjectOf(job.operation, it.params)
    const subject = subjectKind === 'server' ? await serverSubject(job.accountId, it.params, it.result) : sent
    return {
      accountId: job.accountId,
      subjectKind,
      subject,
      aspect: factsOf(job.operation).aspect,
      operation: job.operation,
      purpose: job.purpose,
      params: it.params,
      outcome,
      requestId: it.requestId,
      jobId: job.id,
      itemIndex: i,
      // A renewal's date before is in the journal's item too (a row written after the app's restart has it).
      before: knownAfter(
        was?.value ?? (factsOf(job.operation).zone || factsOf(job.operation).before ? undefined : effectBefore(it)),
        after,
      ),
      after,
      at,
      snapshotId: was?.snapshotId,
      ...(job.by ?? writer()),
    }
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The value before, of the members the value after holds: a member the write neither sent nor got
 * back (the account's auto-renewal beside the domain's, when only the domain's was set) is unknown
 * after, not "none", and a row that kept it before would read as turned off (issue 53).
 */
function knownAfter(before: unknown, after: unknown): unknown {
  if (!isRecord(before) || !isRecord(after) || 'records' in before) return before
  return Object.fromEntries(Object.entries(before).filter(([k]) => k in after))
}

/** A renewal's or an extension's value before: the expiry date its confirmation read. */
function effectBefore(it: JobItemView | undefined): { expirationdate: string } | undefined {
  const from = it?.effect?.from
  return from ? { expirationdate: from } : undefined
}

/**
 * The value after the write: for a write that is read back (a zone, nameservers, WHOIS), what
 * the service kept; for a renewal or an extension, the new date the service answered (else the
 * one its confirmation foretold); dynamic DNS and DS records as answered; otherwise what was sent.
 */
function afterValue(operation: WriteEndpointName, it: JobItemView): unknown {
  const answered = it.state === 'done' ? answeredValue(operation, it.result) : undefined
  if (answered) return answered
  // A renewal or an extension whose answer gave no date: the date its confirmation foretold.
  if (factsOf(operation).effect && factsOf(operation).effect !== 'registration' && it.state === 'done')
    return it.effect?.to ? { expirationdate: it.effect.to } : undefined
  const facts = factsOf(operation)
  const kept = it.state === 'done' && readsBack(operation) ? it.result : undefined
  if (facts.zone) return isZoneAnswer(kept) ? zoneOfAnswer(facts.zone, kept) : zoneAfter(facts.zone, it.params)
  const fields = facts.before ? beforeMembers(facts.before) : undefined
  if (fields && it.state === 'done') {
    // What the service answered it kept, member by member; a member its answer leaves out (an
    // answer that only echoes part of the request) is what was sent, not "unknown".
    const answer: object = typeof kept === 'object' && kept !== null ? kept : {}
    const value = Object.fromEntries(
      fields.flatMap((f) => (f in answer ? [[f, Reflect.get(answer, f)]] : f in it.params ? [[f, it.params[f]]] : [])),
    )
    if (Object.keys(value).length > 0) return value
  }
  return sentValue(it.params)
}

/**
 * A setting's value before a write that no stored list watches (dynamic DNS on or off, the DS
 * records), read from the service just before it is sent; nothing when it cannot be read (the
 * write is sent all the same). Only the setting's own member is kept: never the DDNS password.
 */
async function settingNow(
  client: ApiClient,
  operation: WriteEndpointName,
  params: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const domain =
    typeof params.domain === 'string' || typeof params.domain === 'number' ? String(params.domain) : undefined
  if (domain === undefined) return undefined
  try {
    if (operation === 'domains.dynamicdns.set')
      return { dynamicdns: (await client.call('domains.dynamicdns.get', { domain })).dynamicdns }
    if (operation === 'domains.dnssec.set')
      return { ds_records: (await client.call('domains.dnssec.get', { domain })).ds_records }
  } catch {
    // Unread: the row then says what was set, without a before.
  }
  return undefined
}

/**
 * The value after, as the service answered it, for writes whose answer carries it: the new
 * expiration date of a renewal or an extension, dynamic DNS on or off, the DS records. Checked
 * with the endpoint's own schema; undefined when the answer does not fit.
 */
function answeredValue(operation: WriteEndpointName, result: unknown): Record<string, unknown> | undefined {
  switch (operation) {
    case 'domains.expiration.renew':
    case 'servers.expiration.extend':
    case 'svcips.expiration.extend': {
      const r = endpoints[operation].result.safeParse(result)
      return r.success && r.data.expirationdate ? { expirationdate: r.data.expirationdate } : undefined
    }
    case 'domains.dynamicdns.set': {
      const r = endpoints[operation].result.safeParse(result)
      return r.success ? { dynamicdns: r.data.dynamicdns } : undefined
    }
    case 'domains.dnssec.set': {
      const r = endpoints[operation].result.safeParse(result)
      return r.success ? { ds_records: r.data.ds_records } : undefined
    }
    default:
      return undefined
  }
}

function zoneOfAnswer(
  kind: ZoneKind,
  answer: { records: string; ttl?: number | undefined; ns_type?: string | undefined },
): ZoneInput {
  return kind === 'dns'
    ? { records: answer.records, ttl: answer.ttl, ns_type: answer.ns_type }
    : { records: answer.records, ttl: answer.ttl }
}

function zoneAfter(kind: ZoneKind, params: Record<string, unknown>): ZoneInput {
  const records = typeof params.records === 'string' ? params.records : ''
  const ttl = typeof params.ttl === 'number' ? params.ttl : undefined
  return kind === 'dns'
    ? { records, ttl, ns_type: typeof params.ns_type === 'string' ? params.ns_type : undefined }
    : { records, ttl }
}

function isZoneAnswer(v: unknown): v is { records: string; ttl?: number | undefined; ns_type?: string | undefined } {
  return typeof v === 'object' && v !== null && 'records' in v && typeof v.records === 'string'
}
