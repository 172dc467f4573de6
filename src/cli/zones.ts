/**
 * `dns plan|check|apply <folder or zones.json>`: every zone of a set in one run (DNSControl's
 * preview/push and OctoDNS's plan/sync over a config). Each zone is planned as a zone of its own
 * is (zone-plan.ts: the file checked, the 30 % rule, health findings), a few at a time per account;
 * then one combined plan is said (with --json one object a CI can post on a pull request).
 *
 * Apply sends nothing unless every zone was planned, every zone over the rule has --force, and
 * the flags confirm every account (--yes, and each production account's name with
 * --confirm-account): one confirmation for the whole plan. Then each account's zones go as one
 * job of the app's runner, which sends them ZONES_AT_ONCE at a time through the account's own
 * pacer (its rate limit), each guarded by the zone its plan was made from. SIGINT or SIGTERM stops
 * every job before its next zone; the zones on their way end, and the run says which zones were
 * saved and which were not started.
 *
 * Exit: the most serious of the zones' outcomes: 3 unknown, 1 failed (or stopped), 2 bad input,
 * 4 differs (check; a zone moved since its plan), else 0.
 */
import type { AccountView } from '@shared/accounts'
import { bounded } from '@shared/dns/health/asked'
import type { ErrorData } from '@shared/errors'
import { serviceKeptText } from '@shared/i18n/service-kept-text'
import type { Params } from '@shared/i18n/format'
import type { MessageKey } from '@shared/i18n/catalogue'
import type { JobItemView, JobView } from '@shared/jobs'
import { AppClosed } from './app-closed'
import { BadInput, EXIT, Failed, itemError, zoneMoved, type Context } from './context'
import { healthLines } from './health'
import { planZone, readZoneText, saveItemOf, type ZonePlan } from './zone-plan'
import { zoneSetOf, type ZoneEntry } from './zone-set'
import type { ZoneFormat } from './zone-file'

/**
 * Zones of one account planned, and saved, at a time: the runner's own default; each request
 * still goes through the account's pacer.
 */
const ZONES_AT_ONCE = 3

export interface ZonesOptions {
  mode: 'plan' | 'check' | 'apply'
  asked: ZoneFormat | undefined
  offline: boolean
  force: boolean
  yes: boolean
  /** Every --confirm-account given: the name of each production account of the set. */
  typedNames: string[]
  /** The account a zone names (its folder's or its configuration's), else the command's own. */
  accountNamed(name: string | undefined): Promise<AccountView>
}

type Zone = { entry: ZoneEntry; account: AccountView; notes: string[] } & (
  | { state: 'planned'; plan: ZonePlan }
  | { state: 'refused'; refusal: BadInput }
  | { state: 'failed'; error: ErrorData }
  | { state: 'not-started' }
)

/** A zone's end in an apply. */
type Outcome =
  | { result: 'saved'; item: JobItemView }
  | { result: 'unchanged' }
  | { result: 'not-started' }
  | { result: 'moved' | 'failed' | 'unknown'; error: ErrorData }

/** The most serious first: a run's exit is the first of these any zone ended with. */
const SERIOUSNESS: readonly number[] = [EXIT.unknown, EXIT.failed, EXIT.badInput, EXIT.differs, EXIT.done]
const worst = (codes: readonly number[]): number => SERIOUSNESS.find((s) => codes.includes(s)) ?? EXIT.done

const names = (zones: readonly Zone[]) => zones.map((z) => z.entry.domain).join(', ') || '-'

export async function zonesFromSet(c: Context, path: string, opts: ZonesOptions): Promise<number> {
  const set = await zoneSetOf(c.say, path, opts.asked)
  if (set.leftOut.length > 0) c.io.err(c.say.t('cli.zones.leftOut', { names: set.leftOut.join(', ') }))
  const accounts = await accountsOf(c, set.zones, opts)
  const zones = await planAll(c, set.zones, accounts, opts)
  const counts = {
    zones: zones.length,
    changing: zones.filter((z) => z.state === 'planned' && !z.plan.same).length,
    same: zones.filter((z) => z.state === 'planned' && z.plan.same).length,
    refused: zones.filter((z) => z.state === 'refused').length,
    failed: zones.filter((z) => z.state === 'failed').length,
  }
  const differ = zones.filter((z) => z.state === 'planned' && !z.plan.same)
  const planned = zones.map((z) => ({ zone: z, code: planCode(z, opts.mode) }))
  if (!c.json) {
    for (const z of zones) c.io.out(zoneBlock(c, z).join('\n'))
    c.io.out(c.say.t('cli.zones.summary', counts))
    if (opts.mode === 'check' && differ.length > 0) c.io.out(c.say.t('cli.zones.differ', { names: names(differ) }))
  }
  const notStarted = zones.filter((z) => z.state === 'not-started')
  if (opts.mode !== 'apply' || notStarted.length > 0) {
    if (notStarted.length > 0) c.io.err(c.say.t('cli.zones.stoppedBeforeSend'))
    if (c.json) {
      const domains = differ.map((z) => z.entry.domain)
      c.io.out(JSON.stringify({ mode: opts.mode, counts, differ: domains, zones: zones.map((z) => zoneJson(c, z)) }))
    }
    return notStarted.length > 0 ? EXIT.failed : worst(planned.map((p) => p.code))
  }
  const refusal = applyRefusal(c, zones, opts)
  if (refusal) {
    if (c.json) {
      const error = { kind: 'bad-input', code: refusal.code, params: refusal.params, message: refusal.text }
      c.io.out(JSON.stringify({ mode: opts.mode, counts, ok: false, error, zones: zones.map((z) => zoneJson(c, z)) }))
    }
    c.io.err(refusal.text)
    return zones.some((z) => z.state === 'failed') ? EXIT.failed : EXIT.badInput
  }
  const outcomes = await applyPlans(c, zones, opts)
  return said(c, zones, outcomes, counts)
}

/** Each zone's account, asked once per name; a zone named twice for one account is bad input. */
async function accountsOf(c: Context, entries: readonly ZoneEntry[], opts: ZonesOptions): Promise<AccountView[]> {
  const byName = new Map<string | undefined, AccountView>()
  for (const e of entries) if (!byName.has(e.account)) byName.set(e.account, await opts.accountNamed(e.account))
  const accounts = entries.map((e) => byName.get(e.account)).filter((a): a is AccountView => a !== undefined)
  const seen = new Map<string, string[]>()
  entries.forEach((e, i) => {
    const key = `${accounts[i]?.id ?? ''} ${e.domain}`
    seen.set(key, [...(seen.get(key) ?? []), e.file])
  })
  for (const [key, files] of seen) {
    if (files.length < 2) continue
    const i = entries.findIndex((e, k) => `${accounts[k]?.id ?? ''} ${e.domain}` === key)
    const params = { domain: entries[i]?.domain ?? '', account: accounts[i]?.name ?? '', files: files.join(', ') }
    throw BadInput.of(c.say, 'cli.zones.twice', params)
  }
  return accounts
}

/**
 * Every zone planned: each account's ZONES_AT_ONCE at a time, the accounts side by side; none
 * started once a stop is asked.
 */
async function planAll(
  c: Context,
  entries: readonly ZoneEntry[],
  accounts: readonly AccountView[],
  opts: ZonesOptions,
): Promise<Zone[]> {
  const out: Zone[] = new Array<Zone>(entries.length)
  const ids = [...new Set(accounts.map((a) => a.id))]
  await Promise.all(
    ids.map((id) => {
      const mine = entries.flatMap((entry, i) => (accounts[i]?.id === id ? [{ entry, i, account: accounts[i] }] : []))
      return bounded(
        mine.map(({ entry, i, account }) => async () => {
          if (account) out[i] = await planOne(c, entry, account, opts)
        }),
        ZONES_AT_ONCE,
      )
    }),
  )
  return out
}

async function planOne(c: Context, entry: ZoneEntry, account: AccountView, opts: ZonesOptions): Promise<Zone> {
  const notes: string[] = []
  if (c.io.signal?.aborted) return { entry, account, notes, state: 'not-started' }
  try {
    const text = await readZoneText(c, entry.file)
    const source = { file: entry.file, text, asked: entry.format }
    const onNote = (n: string) => notes.push(n)
    const plan = await planZone(c, account, entry.domain, source, { offline: opts.offline, onNote })
    return { entry, account, notes, state: 'planned', plan }
  } catch (err) {
    if (err instanceof BadInput) return { entry, account, notes, state: 'refused', refusal: err }
    if (err instanceof Failed) return { entry, account, notes, state: 'failed', error: err.error }
    throw err
  }
}

function planCode(z: Zone, mode: ZonesOptions['mode']): number {
  if (z.state === 'refused') return EXIT.badInput
  if (z.state === 'failed') return z.error.kind === 'outcome-unknown' ? EXIT.unknown : EXIT.failed
  if (z.state === 'planned' && mode === 'check' && !z.plan.same) return EXIT.differs
  return EXIT.done
}

/** A zone's part of the combined plan: its heading, what its file said, its plan, warnings and health findings. */
function zoneBlock(c: Context, z: Zone): string[] {
  const domain = z.entry.domain
  const lines = [c.say.t('cli.zones.header', { domain, account: z.account.name, file: z.entry.file }), ...z.notes]
  if (z.state === 'refused') return [...lines, z.refusal.text]
  if (z.state === 'failed') return [...lines, c.say.error(z.error)]
  if (z.state === 'not-started') return [...lines, c.say.t('cli.zones.notStarted', { domain })]
  const p = z.plan
  if (p.same) return [...lines, c.say.t('cli.noChange', { domain }), ...healthLines(c, domain, p.health)]
  return [...lines, ...p.lines, ...p.warnings.map((w) => `! ${w}`), ...healthLines(c, domain, p.health)]
}

function zoneJson(c: Context, z: Zone, outcome?: Outcome) {
  const notes = z.notes.length ? { notes: z.notes } : {}
  const base = { domain: z.entry.domain, account: z.account.name, file: z.entry.file, ...notes }
  if (z.state === 'refused') {
    const { code, params, text } = z.refusal
    return { ...base, ok: false, error: { kind: 'bad-input', code, params, message: text } }
  }
  if (z.state === 'failed') return { ...base, ok: false, error: errorJson(c, z.error) }
  if (z.state === 'not-started') return { ...base, result: 'not-started' }
  const planned = { ...base, ...z.plan.summary, file: z.entry.file, same: z.plan.same }
  if (!outcome) return planned
  if (outcome.result === 'saved') {
    const kept = outcome.item.serviceKept ?? []
    const serviceKept = kept.length ? { serviceKept: kept } : {}
    return { ...planned, result: 'saved', ok: true, requestId: outcome.item.requestId, ...serviceKept }
  }
  if (outcome.result === 'unchanged' || outcome.result === 'not-started') return { ...planned, result: outcome.result }
  return { ...planned, result: outcome.result, ok: false, error: errorJson(c, outcome.error) }
}

const errorJson = (c: Context, e: ErrorData) => ({
  kind: e.kind,
  code: e.code,
  params: e.params,
  requestId: e.requestId,
  message: c.say.error(e),
})

/** Why an apply sends nothing: a zone not planned, or over the 30 % rule without --force. */
function applyRefusal(c: Context, zones: readonly Zone[], opts: ZonesOptions): BadInput | undefined {
  const unplanned = zones.filter((z) => z.state !== 'planned')
  if (unplanned.length > 0) return BadInput.of(c.say, 'cli.zones.notPlanned', { names: names(unplanned) })
  const over = zones.filter((z) => z.state === 'planned' && !z.plan.same && z.plan.safety.needsOwnConfirmation)
  if (over.length > 0 && !opts.force) return BadInput.of(c.say, 'cli.zones.overRule', { names: names(over) })
  return undefined
}

interface Prepared {
  account: AccountView
  job: JobView
  token: string | undefined
  zones: Zone[]
}

/**
 * The changing zones of each account as one job, prepared for every account before any starts;
 * confirmed by the flags as the window's dialog would confirm it, else discarded (nothing sent).
 */
async function applyPlans(c: Context, zones: readonly Zone[], opts: ZonesOptions): Promise<Map<Zone, Outcome>> {
  const outcomes = new Map<Zone, Outcome>()
  const byAccount = new Map<string, Zone[]>()
  for (const z of zones) {
    if (z.state !== 'planned' || z.plan.same) outcomes.set(z, { result: 'unchanged' })
    else byAccount.set(z.account.id, [...(byAccount.get(z.account.id) ?? []), z])
  }
  const prepared: Prepared[] = []
  const discardAll = () => Promise.all(prepared.map((p) => c.session.call('jobs.discard', { jobId: p.job.id })))
  for (const mine of byAccount.values()) {
    const account = mine[0]?.account
    if (!account) continue
    const items = mine.flatMap((z) => (z.state === 'planned' ? [saveItemOf(z.plan)] : []))
    const r = await c.session.call('jobs.prepare', {
      accountId: account.id,
      operation: 'domains.dns.set',
      items,
      purpose: 'cli',
      concurrency: ZONES_AT_ONCE,
    })
    if (!r.ok) {
      await discardAll()
      throw new Failed(r.error)
    }
    prepared.push({ account, job: r.value.job, token: r.value.token, zones: mine })
  }
  const refused = prepared.map((p) => confirmationRefusal(p, opts)).find((x) => x !== undefined)
  if (refused || c.io.signal?.aborted) {
    await discardAll()
    if (refused) throw BadInput.of(c.say, refused.key, refused.params)
    for (const p of prepared) for (const z of p.zones) outcomes.set(z, { result: 'not-started' })
    return outcomes
  }
  const ended = await runAll(c, prepared)
  for (const p of prepared) {
    const job = ended.get(p)
    p.zones.forEach((z, i) => {
      outcomes.set(z, job ? outcomeOf(job.items[i], z.entry.domain) : { result: 'not-started' })
    })
  }
  return outcomes
}

function confirmationRefusal(p: Prepared, opts: ZonesOptions): { key: MessageKey; params: Params } | undefined {
  const { job, account } = p
  if (job.confirmByName && !opts.typedNames.includes(account.name)) {
    if (opts.typedNames.length === 0) return { key: 'cli.zones.needsName', params: { account: account.name } }
    return { key: 'cli.zones.wrongName', params: { account: account.name, given: opts.typedNames.join(', ') } }
  }
  if (job.confirm && !job.confirmByName && !opts.yes) return { key: 'cli.needsYes', params: { account: account.name } }
  return undefined
}

/**
 * Starts every job at once (the accounts side by side, each job ZONES_AT_ONCE zones at a time) and
 * waits for their ends; a stop asked meanwhile stops each before its next zone, a job whose start
 * is still on its way included (the runner then sends none of it).
 */
async function runAll(c: Context, prepared: readonly Prepared[]): Promise<Map<Prepared, JobView>> {
  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= Promise.all(prepared.map((p) => c.session.call('jobs.stop', { jobId: p.job.id }))).then(() => {
      // Said once every job has been told: what the user reads is already so.
      c.io.err(c.say.t('cli.zones.stopping'))
    }))
  const signal = c.io.signal
  const onAbort = () => void stop()
  signal?.addEventListener('abort', onAbort, { once: true })
  const ended = new Map<Prepared, JobView>()
  try {
    await Promise.all(
      prepared.map(async (p) => {
        const started = await c.session.call('jobs.start', {
          jobId: p.job.id,
          ...(p.token ? { token: p.token } : {}),
          ...(p.job.confirmByName ? { accountName: p.account.name } : {}),
        })
        if (!started.ok) {
          await c.session.call('jobs.discard', { jobId: p.job.id })
          c.io.err(`${p.account.name}: ${c.say.error(started.error)}`)
          return
        }
        try {
          ended.set(p, await c.session.ended(started.value))
        } catch (err) {
          // The app closed while it ran the job: its Writes will say how it ended.
          if (!(err instanceof AppClosed)) throw err
          c.io.err(c.say.error(err.error))
        }
      }),
    )
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
  if (stopping) await stopping
  return ended
}

function outcomeOf(item: JobItemView | undefined, domain: string): Outcome {
  if (item?.state === 'done') return { result: 'saved', item }
  if (item?.state === 'skipped' && item.error?.code === 'job.stopped') return { result: 'not-started' }
  const error = itemError(item, domain) ?? { kind: 'internal', code: 'job.interrupted' }
  if (zoneMoved(error)) return { result: 'moved', error }
  return { result: item?.state === 'unknown' ? 'unknown' : 'failed', error }
}

function outcomeCode(o: Outcome): number {
  if (o.result === 'unknown') return EXIT.unknown
  if (o.result === 'failed' || o.result === 'not-started') return EXIT.failed
  return o.result === 'moved' ? EXIT.differs : EXIT.done
}

/** Each zone's end, then the count, or what a stop left: zones saved and zones not started. */
function said(c: Context, zones: readonly Zone[], outcomes: Map<Zone, Outcome>, counts: { same: number }): number {
  const ends = zones.map((z) => ({ z, o: outcomes.get(z) ?? { result: 'not-started' as const } }))
  const saved = ends.filter((e) => e.o.result === 'saved').map((e) => e.z)
  const notStarted = ends.filter((e) => e.o.result === 'not-started').map((e) => e.z)
  const stopped = c.io.signal?.aborted === true
  if (c.json) {
    c.io.out(
      JSON.stringify({
        mode: 'apply',
        ok: ends.every((e) => e.o.result === 'saved' || e.o.result === 'unchanged'),
        stopped,
        saved: saved.map((z) => z.entry.domain),
        notStarted: notStarted.map((z) => z.entry.domain),
        zones: ends.map((e) => zoneJson(c, e.z, e.o)),
      }),
    )
  } else {
    for (const { z, o } of ends) {
      const domain = z.entry.domain
      if (o.result === 'saved') {
        c.io.out(c.say.t('cli.saved', { domain, count: z.state === 'planned' ? z.plan.summary.changes : 0 }))
        const kept = o.item.serviceKept ?? []
        const keptLines = kept.map((f) => `  ${serviceKeptText({ t: c.say.t, tCode: c.say.code }, f)}`)
        if (kept.length) c.io.err([c.say.t('serviceKept.title'), ...keptLines].join('\n'))
      } else if (o.result === 'not-started') c.io.out(c.say.t('cli.zones.notStarted', { domain }))
      else if (o.result !== 'unchanged') c.io.err(`${domain}: ${c.say.error(o.error)}`)
    }
    const failedCount = ends.filter((e) => !['saved', 'unchanged', 'not-started'].includes(e.o.result)).length
    const stoppedAt = { saved: names(saved), notStarted: names(notStarted) }
    if (stopped || notStarted.length > 0) c.io.out(c.say.t('cli.zones.stopped', stoppedAt))
    else c.io.out(c.say.t('cli.zones.done', { saved: saved.length, same: counts.same, failed: failedCount }))
  }
  return worst(ends.map((e) => outcomeCode(e.o)))
}
