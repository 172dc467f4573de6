/**
 * The journal of every write: one JSON line per event (a job started, an item about to be sent,
 * an item's outcome, a job's end), appended to a file in the app's data folder and flushed to
 * disk line by line, so a crash loses at most the line being written. After a restart the jobs
 * are rebuilt from it. It holds what a job's record needs of what was sent and what came back
 * (at-rest.ts): never an API key, a transfer code, a password or a WHOIS contact, in whatever
 * part of a line (parameters, answers, errors, logged answers); the body sent only as a MAC.
 */
import { chmod, copyFile, mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { API_ERROR_KINDS, APP_ERROR_KINDS } from '../../shared/errors'
import { WRITE_ENDPOINT_NAMES } from '../../shared/endpoints/names'
import { SERVICE_KEPT_CODES } from '../../shared/service/service-kept'
import { JOB_PURPOSES, LOG_UNDECIDED, type ItemState, type JobItemView, type JobStatus, type JobView, type LogCheck } from '../../shared/jobs'
import { journaledError, journaledLoggedText, journaledParams, journaledResult, secretsOf, withoutJobSecrets } from './at-rest'

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
const serviceKeptFinding = z.object({ code: z.enum(SERVICE_KEPT_CODES), params: z.record(z.string(), z.union([z.string(), z.number()])) })
const item = z.object({
  target: z.string(),
  label: z.string(),
  params: z.record(z.string(), z.unknown()),
  state: itemState,
  effect: z.object({ from: z.string().optional(), to: z.string().optional(), unreadable: z.boolean().optional() }).optional(),
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
  items: z.array(item),
})

const record = z.discriminatedUnion('t', [
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
export type JournalRecord = z.infer<typeof record>

type Bag = Record<string, unknown>
const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Journals written before "stored" became the local store's word only name what the service kept
 * `stored`, with `stored.*` codes and the kept value as `params.stored`. Such a line is read under
 * today's names (`serviceKept`, `serviceKept.*`, `params.kept`), so no job of an older journal
 * loses what it found; anything else is left as it is, for the schema to judge.
 */
function withTodaysNames(line: unknown): unknown {
  if (!isBag(line)) return line
  if (line.t === 'item') return renamedItem(line)
  if (line.t === 'job' && isBag(line.job) && Array.isArray(line.job.items)) return { ...line, job: { ...line.job, items: line.job.items.map(renamedItem) } }
  return line
}

function renamedItem(item: unknown): unknown {
  if (!isBag(item) || !('stored' in item) || 'serviceKept' in item) return item
  const { stored, ...rest } = item
  return { ...rest, serviceKept: Array.isArray(stored) ? stored.map(renamedFinding) : stored }
}

function renamedFinding(finding: unknown): unknown {
  if (!isBag(finding)) return finding
  const code = typeof finding.code === 'string' && finding.code.startsWith('stored.') ? `serviceKept.${finding.code.slice('stored.'.length)}` : finding.code
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
function journaledFindings(findings: NonNullable<JobItemView['serviceKept']>, secrets: readonly string[]): NonNullable<JobItemView['serviceKept']> {
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
export function itemRecord(jobId: string, i: number, it: JobItemView, secrets: readonly string[] = secretsOf([it.params])): JournalRecord {
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
function journaledJob(job: JobView): JobView {
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

/**
 * Who may write a journal: the services that hold its data folder's lock (data-lock.ts), and
 * only while they hold it. Another process's lines would vanish in this one's rewrite (and this
 * one's in the other's), so a journal is written by its folder's holder or not at all.
 */
export interface JournalWriter {
  /** Undefined while the journal may be written; otherwise a code saying why not. */
  notWriterReason(): string | undefined
}

/** A journal write refused because this process does not hold the data folder (its code says why). */
class NotTheWriter extends Error {
  constructor(readonly code: string) {
    super(`journal not written: ${code}`)
    this.name = 'NotTheWriter'
  }
}

export class Journal {
  private handle: FileHandle | undefined
  private writes: Promise<void> = Promise.resolve()
  /** Lines that could not be read back (a torn last line, a foreign file): counted, never fatal. */
  unreadableLines = 0

  constructor(
    readonly file: string,
    private readonly writer: JournalWriter,
  ) {}

  /** Checked as each write's turn comes (the lock may have been let go meanwhile). */
  private mayWrite(): void {
    const reason = this.writer.notWriterReason()
    if (reason !== undefined) throw new NotTheWriter(reason)
  }

  /** Every job in the journal, as it stood at its last line, oldest first. */
  async load(): Promise<JobView[]> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (err) {
      if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') return []
      throw err
    }
    const jobs = new Map<string, JobView>()
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      let json: unknown
      try {
        json = JSON.parse(line)
      } catch {
        this.unreadableLines++
        continue
      }
      const parsed = record.safeParse(withTodaysNames(json))
      if (!parsed.success) {
        this.unreadableLines++
        continue
      }
      apply(jobs, parsed.data)
    }
    return [...jobs.values()]
  }

  /** Appends one line and flushes it to disk; lines are written one at a time, in order. A job's line keeps no secret or contact. */
  append(r: JournalRecord): Promise<void> {
    const line = `${JSON.stringify(r.t === 'job' ? { t: 'job', job: journaledJob(r.job) } : r)}\n`
    const write = this.writes.then(async () => {
      this.mayWrite()
      if (!this.handle) {
        await mkdir(dirname(this.file), { recursive: true })
        // Readable by the user only: it holds what was sent to the service.
        this.handle = await open(this.file, 'a', 0o600)
        await this.handle.chmod(0o600)
      }
      await this.handle.write(line)
      await this.handle.datasync()
    })
    this.writes = write.catch(() => undefined)
    return write
  }

  /**
   * Copies the journal as read aside (`journal.jsonl.damaged-<time>`) before a rewrite would drop
   * its unreadable lines: they may be the only record of a send. Returns the copy's path.
   */
  async keepAside(now: Date): Promise<string> {
    const aside = `${this.file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`
    await this.writes
    this.mayWrite()
    await copyFile(this.file, aside)
    await chmod(aside, 0o600)
    return aside
  }

  /**
   * Rewrites the journal with only these jobs, one line each (after a restart, to keep it short;
   * after an account is removed); only by the folder's holder. In the same queue as the lines: a line appended meanwhile is
   * written after the rewrite, never into the file the rewrite replaces.
   */
  compact(jobs: JobView[]): Promise<void> {
    const lines = jobs.map((j) => `${JSON.stringify({ t: 'job', job: journaledJob(j) })}\n`)
    const rewrite = this.writes.then(async () => {
      // Never a rewrite of a journal another holder may be appending to.
      this.mayWrite()
      await this.handle?.close()
      this.handle = undefined
      await mkdir(dirname(this.file), { recursive: true })
      const tmp = `${this.file}.tmp`
      try {
        const h = await open(tmp, 'w', 0o600)
        try {
          await h.chmod(0o600)
          for (const line of lines) await h.write(line)
          await h.datasync()
        } finally {
          await h.close()
        }
        await rename(tmp, this.file)
      } catch (err) {
        // A full disk cuts the rewrite short: the journal stays as it was, and no half copy beside it.
        await unlink(tmp).catch(() => undefined)
        throw err
      }
    })
    this.writes = rewrite.catch(() => undefined)
    return rewrite
  }

  async close(): Promise<void> {
    await this.writes
    await this.handle?.close()
    this.handle = undefined
  }
}

function apply(jobs: Map<string, JobView>, r: JournalRecord): void {
  if (r.t === 'job') {
    jobs.set(r.job.id, r.job)
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
  if (!it) return
  const state: ItemState = r.state
  Object.assign(it, { state })
  for (const key of ['sentAt', 'sent', 'requestId', 'error', 'result', 'serviceKept', 'log', 'resolvedFromLog'] as const) if (r[key] !== undefined) Object.assign(it, { [key]: r[key] })
}

export type { JobStatus, LogCheck }

/** For the team ledger (src/main/team), which keeps the same records as rows: their schema, their fold into jobs, a job as kept at rest. */
export { record as journalRecordSchema, apply as applyJournalRecord, journaledJob }
