/**
 * The bulk DNS change's steps that need no screen: reading the chosen zones afresh (a few at a
 * time, cancellable) and planning the change for each, then deciding which zones are sent and
 * making their job items per account (a job per operation), each item guarded by the text its
 * plan was made from. No Vue and no window here, so the tests drive it with a fake read.
 */
import { applyBulkChange, type BulkChange, type ZoneChange } from '@shared/dns/bulk-change'
import { joinValue, VALUE_FIELDS, type KnownType, type ValueFields } from '@shared/dns/records'
import type { ErrorData } from '@shared/errors'
import type { ZoneKind } from '@shared/portfolio'
import type { ZoneGuard } from '@shared/jobs'
import type { ApiParams, Result } from '@shared/ipc/contract'

/** The change as its form holds it: every field of every kind, so switching kinds loses nothing typed. */
export interface ChangeDraft {
  kind: BulkChange['kind']
  from: string
  to: string
  /** '' : any type. */
  replaceType: KnownType | ''
  addType: KnownType
  addHost: string
  addParts: ValueFields
  removeType: KnownType | ''
  /** '' : any host (type @ for the apex). */
  removeHost: string
  /** '' : any value. */
  removeValue: string
}

export const emptyDraft = (): ChangeDraft => ({
  kind: 'replace',
  from: '',
  to: '',
  replaceType: '',
  addType: 'a',
  addHost: '',
  addParts: {},
  removeType: '',
  removeHost: '',
  removeValue: '',
})

/** The change the form describes. */
export function draftChange(d: ChangeDraft): BulkChange {
  switch (d.kind) {
    case 'replace':
      return { kind: 'replace', from: d.from, to: d.to, ...(d.replaceType ? { type: d.replaceType } : {}) }
    case 'add': {
      const parts: ValueFields = Object.fromEntries(
        VALUE_FIELDS[d.addType].map((f) => [f, (d.addParts[f] ?? '').trim()]),
      )
      return { kind: 'add', type: d.addType, host: d.addHost, value: joinValue(d.addType, parts), parts }
    }
    case 'remove':
      return {
        kind: 'remove',
        ...(d.removeType ? { type: d.removeType } : {}),
        ...(d.removeHost.trim() ? { host: d.removeHost.trim() } : {}),
        ...(d.removeValue.trim() ? { value: d.removeValue.trim() } : {}),
      }
  }
}

/** A zone of an account, as the store lists it. */
export interface ZoneRef {
  accountId: string
  kind: ZoneKind
  domain: string
}
export const zoneKey = (z: ZoneRef): string => `${z.accountId}\u0000${z.kind}\u0000${z.domain}`

/** A zone as the screen lists it for choosing, with its account's name (a type, not an interface: DataTable takes records). */
export type ZoneRow = {
  key: string
  account: string
  accountId: string
  kind: ZoneRef['kind']
  domain: string
  recordCount: number
  readAt: string
}

/** A zone as read just now from the service: what its plan is made from and what its save sends back. */
export type ZoneRead =
  /** ns_type: the service's word, sent back as it came. */
  | { kind: 'dns'; records: string; ttl?: number | undefined; ns_type: string }
  | { kind: 'freedns'; records: string; ttl?: number | undefined }

export type ZonePlan =
  | { ref: ZoneRef; status: 'planned'; read: ZoneRead; change: ZoneChange }
  | { ref: ZoneRef; status: 'failed'; error: ErrorData }
  /** Not read: the user cancelled before its turn. */
  | { ref: ZoneRef; status: 'cancelled' }

export interface BuildOptions {
  /** Zones read at once. */
  concurrency?: number
  signal?: AbortSignal | undefined
  /** Each zone's plan as soon as it is made (for the progress and the list). */
  onPlan?: (plan: ZonePlan) => void
}

export type ReadZone = (ref: ZoneRef, signal: AbortSignal | undefined) => Promise<Result<ZoneRead>>

/** Reads every zone (a few at a time) and plans the change for each; in the zones' order. */
export async function buildPlans(
  refs: readonly ZoneRef[],
  change: BulkChange,
  read: ReadZone,
  opts: BuildOptions = {},
): Promise<ZonePlan[]> {
  const plans: (ZonePlan | undefined)[] = refs.map(() => undefined)
  let next = 0
  const worker = async () => {
    while (next < refs.length) {
      const i = next++
      const ref = refs[i]
      if (!ref) break
      let plan: ZonePlan
      if (opts.signal?.aborted) plan = { ref, status: 'cancelled' }
      else {
        const r = await read(ref, opts.signal)
        if (r.ok)
          plan = { ref, status: 'planned', read: r.value, change: applyBulkChange(r.value.records, change, ref.domain) }
        else plan = opts.signal?.aborted ? { ref, status: 'cancelled' } : { ref, status: 'failed', error: r.error }
      }
      plans[i] = plan
      opts.onPlan?.(plan)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, refs.length)) }, worker))
  return refs.map((ref, i) => plans[i] ?? { ref, status: 'cancelled' })
}

/** Why a zone is not sent. */
export type LeftOut = 'readFailed' | 'notRead' | 'noChange' | 'invalid' | 'notConfirmed' | 'readOnly'

export interface Decision {
  plan: ZonePlan
  /** Undefined: it is sent. */
  leftOut?: LeftOut | undefined
}

/**
 * Whether each zone is sent: only a zone read, with something to change, valid after the
 * change, of an account that takes writes, and, when it needs its own confirmation, given it.
 */
export function decide(
  plans: readonly ZonePlan[],
  ownConfirmations: ReadonlySet<string>,
  isReadOnly: (accountId: string) => boolean,
): Decision[] {
  return plans.map((plan): Decision => {
    if (plan.status === 'failed') return { plan, leftOut: 'readFailed' }
    if (plan.status === 'cancelled') return { plan, leftOut: 'notRead' }
    if (plan.change.empty) return { plan, leftOut: 'noChange' }
    if (plan.change.issues.length > 0) return { plan, leftOut: 'invalid' }
    if (isReadOnly(plan.ref.accountId)) return { plan, leftOut: 'readOnly' }
    if (plan.change.needsOwnConfirmation && !ownConfirmations.has(zoneKey(plan.ref)))
      return { plan, leftOut: 'notConfirmed' }
    return { plan }
  })
}

/** Whether a zone waits for its own tick (over the safety rule or changing apex NS) and may have it. */
function awaitsOwnTick(d: Decision): boolean {
  return (
    d.plan.status === 'planned' &&
    d.plan.change.needsOwnConfirmation &&
    (d.leftOut === undefined || d.leftOut === 'notConfirmed')
  )
}

/** The plans to read, flagged zones (their own tick needed) first, each group in its order. */
export function flaggedFirst(decisions: readonly Decision[]): Decision[] {
  return [
    ...decisions.filter((d) => d.plan.status === 'planned' && d.plan.change.needsOwnConfirmation),
    ...decisions.filter((d) => !(d.plan.status === 'planned' && d.plan.change.needsOwnConfirmation)),
  ]
}

/** "Tick all flagged": the keys of every flagged zone that may be sent once ticked (not an invalid or read-only one). */
export function flaggedKeys(decisions: readonly Decision[]): string[] {
  return decisions.filter(awaitsOwnTick).map((d) => zoneKey(d.plan.ref))
}

/** A job's items as AccountApi.prepare takes them (data/account-api's JobItems, which needs the window). */
type Items<N extends 'domains.dns.set' | 'freedns.set'> = {
  params: ApiParams<N>
  label: string
  guard: ZoneGuard
  overRule?: boolean
}[]

/** What one account is sent: its DNS zones in one job, its free DNS zones in another. */
export interface AccountJobs {
  accountId: string
  dns: Items<'domains.dns.set'>
  freedns: Items<'freedns.set'>
}

/**
 * The items of the zones sent, per account in the order the accounts first appear: each the
 * zone's new records with its TTL (and for DNS its ns_type) as read, labelled with the zone's
 * name, and guarded by the zone the plan was made from (records, TTL and ns_type), so main sends
 * nothing for a zone changed since; a zone over the safety rule carries its own confirmation.
 */
export function jobItems(decisions: readonly Decision[]): AccountJobs[] {
  const out = new Map<string, AccountJobs>()
  for (const d of decisions) {
    if (d.leftOut || d.plan.status !== 'planned') continue
    const { ref, read, change } = d.plan
    const jobs = out.get(ref.accountId) ?? { accountId: ref.accountId, dns: [], freedns: [] }
    const ttl = read.ttl !== undefined ? { ttl: read.ttl } : {}
    const guard: ZoneGuard = {
      records: read.records,
      ...ttl,
      ...(read.kind === 'dns' && read.ns_type !== undefined ? { ns_type: read.ns_type } : {}),
    }
    // Only a zone the user ticked on its own gets this far (see decide).
    const common = { label: ref.domain, guard, ...(change.needsOwnConfirmation ? { overRule: true } : {}) }
    if (read.kind === 'dns')
      jobs.dns.push({
        params: { domain: ref.domain, records: change.records, ns_type: read.ns_type, ...ttl },
        ...common,
      })
    else jobs.freedns.push({ params: { domain: ref.domain, records: change.records, ...ttl }, ...common })
    out.set(ref.accountId, jobs)
  }
  return [...out.values()]
}
