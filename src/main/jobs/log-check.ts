/**
 * Looking a lost answer up in the service's own request log (GET /logs, newest first): exactly one
 * entry with the same method, path and body, logged after the job began, means the service
 * received it, and the answer it logged says whether it was done.
 *
 * "After the job began" is the entry that was newest when the job started (its baseline), which
 * the job's journal line keeps, so a check after a restart has it too. The log's times are in the
 * service's clock and time zone, which this app does not know: without a baseline, nothing is
 * settled (an earlier identical request, a renewal of the year before, would look the same), and
 * neither is it when two entries after the baseline match, nor when another send of the same target
 * (a colleague's) left with no request id known. Entries whose request ids the ledger recorded for
 * other sends are never taken for this item's. The item then stays unknown, saying why.
 */
import type { ApiClient } from '../http'
import type { LogEntry } from '@shared/endpoints/decoders'
import { kindForStatus, type ErrorData } from '@shared/errors'
import type { BodyMac } from './ledger/body-mac'

export interface SentRequest {
  method: string
  /** The path as the log records it (with the base path, such as /v1/domains/x/dns). */
  path: string
  /** The MAC of the body sent (body-mac.ts), or an older journal's digest: the body itself is not kept on disk. */
  bodyHash: string
  /** The request ID of the log's newest entry when the job started; undefined when it could not be read. */
  baselineId: string | undefined
  /**
   * Other sends of the same target since the job started, as the ledger recorded them: entries
   * with these request ids are theirs, never this item's; `withoutId` of them left with no id
   * known, so a match cannot be told from theirs.
   */
  others?: { requestIds: readonly string[]; withoutId: number } | undefined
}

/** Why a log check settles nothing, when it does not. */
export type Undecided = 'noBaseline' | 'several' | 'baselineNotReached' | 'order' | 'others'

export type LogSearch = { found: LogEntry } | { notFound: true } | { undecided: Undecided }

/** How far back a check reads, newest first, looking for the baseline. */
const PAGES = 10
const PAGE_SIZE = 100

/** Same method, path and body (the body compared by its MAC). */
async function sameRequest(entry: LogEntry, sent: SentRequest, bodyMac: BodyMac): Promise<boolean> {
  return (
    entry.method.toUpperCase() === sent.method &&
    entry.path.split('?')[0] === sent.path.split('?')[0] &&
    (await bodyMac.matches(entry.request, sent.bodyHash))
  )
}

/** Whether log entries come newest first, as DESC asks (times never rise down the page). */
export function newestFirst(entries: readonly LogEntry[]): boolean {
  for (let i = 1; i < entries.length; i++) {
    const [before, entry] = [entries[i - 1], entries[i]]
    if (before && entry && entry.datetime > before.datetime) return false
  }
  return true
}

/** The request ID of the newest log entry now (a job's baseline), or undefined if the log cannot be read. */
export async function newestLogId(client: ApiClient): Promise<string | undefined> {
  try {
    return (await client.call('logs.list', { limit: 1, page: 1, order: 'DESC' }))[0]?.request_id
  } catch {
    return undefined
  }
}

/** The log's entries of the request logged after the baseline: found when exactly one. */
export async function findInLog(
  client: ApiClient,
  sent: SentRequest,
  bodyMac: BodyMac,
  signal?: AbortSignal,
): Promise<LogSearch> {
  if (sent.baselineId === undefined) return { undecided: 'noBaseline' }
  const matches: LogEntry[] = []
  for (let page = 1; page <= PAGES; page++) {
    const entries = await client.call('logs.list', { limit: PAGE_SIZE, page, order: 'DESC' }, signal ? { signal } : {})
    // The search relies on newest first: a page in another order proves nothing.
    if (!newestFirst(entries)) return { undecided: 'order' }
    for (const e of entries) {
      // Newest first: the baseline and everything after it was logged before the job began.
      if (e.request_id === sent.baselineId) return decide(matches, sent.others)
      // Another item's request (its id recorded with its end) is never this one's.
      if (sent.others?.requestIds.includes(e.request_id)) continue
      if (await sameRequest(e, sent, bodyMac)) matches.push(e)
    }
    if (entries.length < PAGE_SIZE) return { undecided: 'baselineNotReached' }
  }
  return { undecided: 'baselineNotReached' }
}

function decide(matches: LogEntry[], others: SentRequest['others']): LogSearch {
  const [found, ...more] = matches
  if (!found) return { notFound: true }
  if (more.length > 0) return { undecided: 'several' }
  // One match, but another send of the target went out with no id known: it may be that one's.
  if ((others?.withoutId ?? 0) > 0) return { undecided: 'others' }
  return { found }
}

/** The answer a log entry holds: results, or the service's error. */
export function loggedAnswer(response: string): { ok: true; results: unknown } | { ok: false; error: ErrorData } {
  let body: unknown
  try {
    body = JSON.parse(response)
  } catch {
    return { ok: true, results: undefined }
  }
  if (typeof body === 'object' && body !== null && 'errors' in body) {
    const e = body.errors
    const code = typeof e === 'object' && e !== null && 'code' in e ? Number(e.code) : 400
    const message =
      typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string' ? e.message : undefined
    const kind = kindForStatus(Number.isFinite(code) ? code : 400)
    return { ok: false, error: { kind, code: `error.${kind}`, status: code, serviceMessage: message } }
  }
  return {
    ok: true,
    results: typeof body === 'object' && body !== null && 'results' in body ? body.results : undefined,
  }
}
