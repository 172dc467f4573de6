/**
 * Looking a lost answer up in the service's own request log (GET /logs, newest first): an entry
 * with the same method, path and body, logged after the job began, means the service received
 * it, and the answer it logged says whether it was done.
 *
 * "After the job began" is the entry that was newest when the job started (its baseline): the
 * log's times are in the service's clock and time zone, which this app does not know. Without a
 * baseline, an entry within ten minutes of the send, read as UTC or as local time, matches.
 */
import type { ApiClient } from '../http'
import type { LogEntry } from '../../shared/endpoints/decoders'

export interface SentRequest {
  method: string
  /** The path as the log records it (with the base path, such as /v1/domains/x/dns). */
  path: string
  body: string | undefined
  sentAt: Date
  /** The request ID of the log's newest entry when the job started. */
  baselineId?: string | undefined
}

/** Log times are read as this computer's local time; an entry this far either side still matches. */
const WINDOW_MS = 10 * 60_000
const PAGES = 3
const PAGE_SIZE = 100

/** 'YYYY-MM-DD HH:MM:SS' read as UTC and as local time (the service's zone is not known). */
export function parseLogTimes(s: string): Date[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(s)
  if (!m) return []
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  return [new Date(Date.UTC(y, mo - 1, d, h, mi, se)), new Date(y, mo - 1, d, h, mi, se)]
}

function sameJson(a: string | undefined, b: string | undefined): boolean {
  const norm = (s: string | undefined) => {
    if (!s) return '{}'
    try {
      return JSON.stringify(sortKeys(JSON.parse(s)))
    } catch {
      return s
    }
  }
  return norm(a) === norm(b)
}
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (typeof v !== 'object' || v === null) return v
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]))
}

const within = (entry: LogEntry, sent: SentRequest) =>
  parseLogTimes(entry.datetime).some((at) => Math.abs(at.getTime() - sent.sentAt.getTime()) <= WINDOW_MS)

/** Same method, path and body (the time is judged by the caller). */
export function sameRequest(entry: LogEntry, sent: SentRequest): boolean {
  return entry.method.toUpperCase() === sent.method && entry.path.split('?')[0] === sent.path.split('?')[0] && sameJson(entry.request, sent.body)
}

/** Whether log entries come newest first, as DESC asks (times never rise down the page). */
export function newestFirst(entries: readonly LogEntry[]): boolean {
  for (let i = 1; i < entries.length; i++) {
    if ((entries[i] as LogEntry).datetime > (entries[i - 1] as LogEntry).datetime) return false
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

/** The log entry of the request, if the service logged it; reads at most three pages. */
export async function findInLog(client: ApiClient, sent: SentRequest, signal?: AbortSignal): Promise<LogEntry | undefined> {
  for (let page = 1; page <= PAGES; page++) {
    const entries = await client.call('logs.list', { limit: PAGE_SIZE, page, order: 'DESC' }, signal ? { signal } : {})
    // The search below relies on newest first: a page in another order proves nothing, so the outcome stays unknown.
    if (!newestFirst(entries)) return undefined
    for (const e of entries) {
      // Newest first: the baseline and everything after it was logged before the job began.
      if (sent.baselineId !== undefined && e.request_id === sent.baselineId) return undefined
      if (sameRequest(e, sent) && (sent.baselineId !== undefined || within(e, sent))) return e
    }
    if (entries.length < PAGE_SIZE) return undefined
  }
  return undefined
}
