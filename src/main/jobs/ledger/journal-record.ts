/**
 * The journal's records: one per event of a write (a job started, an item about to be sent, an
 * item's outcome, a job's end), their schema, how a job is rebuilt from them, and what a record
 * keeps of what was sent and what came back (at-rest.ts): never an API key, a transfer code, a
 * password or a WHOIS contact, in whatever part of a record (parameters, answers, errors, logged
 * answers); the body sent only as a MAC (body-mac.ts). The local journal file (journal-file.ts)
 * and the team's database keep the same records.
 */
import { z } from 'zod'
import { API_ERROR_KINDS, APP_ERROR_KINDS } from '@shared/errors'
import { WRITE_ENDPOINT_NAMES } from '@shared/endpoints/names'
import { SERVICE_KEPT_CODES } from '@shared/service/service-kept'
import {
  JOB_PURPOSES,
  LOG_UNDECIDED,
  type ItemState,
  type JobItemView,
  type JobView,
  type LogCheck,
} from '@shared/jobs'
import {
  journaledError,
  journaledLoggedText,
  journaledParams,
  journaledResult,
  secretsOf,
  withoutJobSecrets,
} from './at-rest'

const params = z.record(z.string(), z.union([z.string(), z.number()])).optional()
const errorData = z.object({
  kind: z.enum([...API_ERROR_KINDS, ...APP_ERROR_KINDS]),
  code: z.string(),
  params,
  status: z.number().optional(),
  serviceMessage: z.string().optional(),
  requestId: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), code: z.string(), params })).optional(),
})
const itemState = z.enum(['pending', 'sending', 'done', 'failed', 'unknown', 'skipped'])
const jobStatus = z.enum(['prepared', 'running', 'paused', 'stopping', 'stopped', 'done', 'interrupted'])
const logCheck = z.object({
  status: z.enum(['checking', 'received', 'not-found', 'undecided', 'failed']),
  reason: z.enum(LOG_UNDECIDED).optional(),
  checkedAt: z.string(),
  entry: z.object({ request_id: z.string(), datetime: z.string(), response: z.string() }).optional(),
  error: errorData.optional(),
})
// The findings as journaled: their parameters are plain text and numbers; the field names are
// checked where they are shown (an unknown one is shown as it is).
const serviceKeptFinding = z.object({
  code: z.enum(SERVICE_KEPT_CODES),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
})
const item = z.object({
  target: z.string(),
  label: z.string(),
  params: z.record(z.string(), z.unknown()),
  state: itemState,
  effect: z
    .object({ from: z.string().optional(), to: z.string().optional(), unreadable: z.boolean().optional() })
    .optional(),
  basis: z.string().optional(),
  result: z.unknown().optional(),
  serviceKept: z.array(serviceKeptFinding).optional(),
  error: errorData.optional(),
  requestId: z.string().optional(),
  sentAt: z.string().optional(),
  sent: z.object({ method: z.string(), path: z.string(), bodyHash: z.string() }).optional(),
  paramsKept: z.boolean().optional(),
  log: logCheck.optional(),
  resolvedFromLog: z.boolean().optional(),
  overRule: z.boolean().optional(),
})
const job = z.object({
  id: z.string(),
  accountId: z.string(),
  accountName: z.string(),
  operation: z.enum(WRITE_ENDPOINT_NAMES),
  confirm: z.boolean(),
  confirmByName: z.boolean().optional(),
  purpose: z.enum(JOB_PURPOSES).optional(),
  status: jobStatus,
  createdAt: z.string(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  concurrency: z.number(),
  logBaseline: z.string().nullable().optional(),
  mark: z.string().optional(),
  items: z.array(item),
})

export const journalRecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('job'), job }),
  z.object({
    t: z.literal('item'),
    job: z.string(),
    i: z.number().int().min(0),
    state: itemState,
    sentAt: z.string().optional(),
    sent: z.object({ method: z.string(), path: z.string(), bodyHash: z.string() }).optional(),
    requestId: z.string().optional(),
    error: errorData.optional(),
    result: z.unknown().optional(),
    serviceKept: z.array(serviceKeptFinding).optional(),
    log: logCheck.optional(),
    resolvedFromLog: z.boolean().optional(),
  }),
  z.object({ t: z.literal('status'), job: z.string(), status: jobStatus, at: z.string() }),
])
export type JournalRecord = z.infer<typeof journalRecordSchema>

type Bag = Record<string, unknown>
const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Journals written before "stored" became the local store's word only name what the service kept
 * `stored`, with `stored.*` codes and the kept value as `params.stored`. Such a line is read under
 * today's names (`serviceKept`, `serviceKept.*`, `params.kept`), so no job of an older journal
 * loses what it found; anything else is left as it is, for the schema to judge.
 */
export function withTodaysNames(line: unknown): unknown {
  if (!isBag(line)) return line
  if (line.t === 'item') return renamedItem(line)
  if (line.t === 'job' && isBag(line.job) && Array.isArray(line.job.items))
    return { ...line, job: { ...line.job, items: line.job.items.map(renamedItem) } }
  return line
}

function renamedItem(item: unknown): unknown {
  if (!isBag(item) || !('stored' in item) || 'serviceKept' in item) return item
  const { stored, ...rest } = item
  return { ...rest, serviceKept: Array.isArray(stored) ? stored.map(renamedFinding) : stored }
}

function renamedFinding(finding: unknown): unknown {
  if (!isBag(finding)) return finding
  const code =
    typeof finding.code === 'string' && finding.code.startsWith('stored.')
      ? `serviceKept.${finding.code.slice('stored.'.length)}`
      : finding.code
  if (!isBag(finding.params) || !('stored' in finding.params) || 'kept' in finding.params) return { ...finding, code }
  const { stored, ...params } = finding.params
  return { ...finding, code, params: { ...params, kept: stored } }
}

/** A log check as a journal line keeps it: the logged answer reduced, its error and text checked against the job's secrets. */
const journaledLog = (log: LogCheck, secrets: readonly string[]): LogCheck => ({
  ...log,
  ...(log.entry ? { entry: { ...log.entry, response: journaledLoggedText(log.entry.response, secrets) } } : {}),
  ...(log.error ? { error: journaledError(log.error, secrets) } : {}),
})

/** What the service kept, as the journal keeps it: a contact's values left out (personal data), other text checked against the job's secrets. */
function journaledFindings(
  findings: NonNullable<JobItemView['serviceKept']>,
  secrets: readonly string[],
): NonNullable<JobItemView['serviceKept']> {
  return findings.map((f) => {
    const contact = String(f.params.field ?? '').startsWith('contact.')
    const params = Object.entries(f.params).flatMap(([k, v]): [string, string | number][] => {
      if (contact && (k === 'sent' || k === 'kept')) return []
      return [[k, typeof v === 'string' ? withoutJobSecrets(v, secrets) : v]]
    })
    return { ...f, params: Object.fromEntries(params) }
  })
}

/** Every secret of a job: what no text of its lines may repeat. */
export const jobSecrets = (job: Pick<JobView, 'items'>): string[] => secretsOf(job.items.map((it) => it.params))

/**
 * An item's change as a journal line: its result, error and logged answer reduced to what the
 * record needs, and checked against the secrets of the job (by default the item's own; the
 * runner gives the whole job's).
 */
export function itemRecord(
  jobId: string,
  i: number,
  it: JobItemView,
  secrets: readonly string[] = secretsOf([it.params]),
): JournalRecord {
  const r: JournalRecord = { t: 'item', job: jobId, i, state: it.state }
  if (it.sentAt) r.sentAt = it.sentAt
  if (it.sent) r.sent = it.sent
  if (it.requestId) r.requestId = it.requestId
  if (it.error) r.error = journaledError(it.error, secrets)
  if (it.result !== undefined) r.result = journaledResult(it.result, secrets)
  if (it.serviceKept?.length) r.serviceKept = journaledFindings(it.serviceKept, secrets)
  if (it.log) r.log = journaledLog(it.log, secrets)
  if (it.resolvedFromLog) r.resolvedFromLog = true
  return r
}

/** A job as a journal line keeps it: parameters without secrets or contacts, answers, errors and logged answers reduced as an item's line reduces them. */
export function journaledJob(job: JobView): JobView {
  const secrets = jobSecrets(job)
  return {
    ...job,
    items: job.items.map((it) => {
      const kept = journaledParams(it.params)
      return {
        ...it,
        params: kept.params,
        ...(kept.complete ? {} : { paramsKept: false }),
        result: it.result === undefined ? undefined : journaledResult(it.result, secrets),
        ...(it.error ? { error: journaledError(it.error, secrets) } : {}),
        ...(it.serviceKept ? { serviceKept: journaledFindings(it.serviceKept, secrets) } : {}),
        ...(it.log ? { log: journaledLog(it.log, secrets) } : {}),
      }
    }),
  }
}

/** Item states no later record takes back: the service answered (or the log settled it). */
const SETTLED: readonly ItemState[] = ['done', 'failed']
const movesBack = (from: ItemState, to: ItemState) => SETTLED.includes(from) && !SETTLED.includes(to)

/**
 * One record folded into the jobs it belongs to (in the order the records were written). Settled
 * stays settled: no record moves an item back from done or failed (a process woken past its hold,
 * a line written out of turn), and a job's line read again keeps the items its earlier lines settled.
 */
export function applyJournalRecord(jobs: Map<string, JobView>, r: JournalRecord): void {
  if (r.t === 'job') {
    const known = jobs.get(r.job.id)
    jobs.set(
      r.job.id,
      known
        ? {
            ...r.job,
            items: r.job.items.map((it, i) => {
              const was = known.items[i]
              return was && movesBack(was.state, it.state) ? was : it
            }),
          }
        : r.job,
    )
    return
  }
  const j = jobs.get(r.job)
  if (!j) return
  if (r.t === 'status') {
    j.status = r.status
    if (r.status === 'done' || r.status === 'stopped') j.endedAt = r.at
    return
  }
  const it = j.items[r.i]
  if (!it || movesBack(it.state, r.state)) return
  const state: ItemState = r.state
  Object.assign(it, { state })
  for (const key of [
    'sentAt',
    'sent',
    'requestId',
    'error',
    'result',
    'serviceKept',
    'log',
    'resolvedFromLog',
  ] as const)
    if (r[key] !== undefined) Object.assign(it, { [key]: r[key] })
}
