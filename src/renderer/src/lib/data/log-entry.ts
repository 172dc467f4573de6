/**
 * What an API log entry says about its request. The log records the response body, not the HTTP
 * status line (spec section 2, "API log entry"), so the status is read from the body the way the
 * service writes it: a failure is the error envelope, whose errors.code is the HTTP status
 * ({"errors":{"code":500,"message":"Internal Server Error"}}); a success is the result envelope
 * ({"results":…}), which the service sends with 200. A body that shows neither (cut short
 * before it says, not JSON, empty) leaves the status unknown: it is never guessed.
 */
import type { LogEntry } from '@shared/endpoints/decoders'

export type LogOutcome = 'success' | 'error' | 'unknown'

export interface LogStatus {
  outcome: LogOutcome
  /** The HTTP status, when the body shows it. */
  code?: number | undefined
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

const isStatusCode = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 599

export function logStatus(response: string): LogStatus {
  let body: unknown
  try {
    body = JSON.parse(response)
  } catch {
    // Long bodies are logged cut short ("…" at the end), so they are no longer JSON; their
    // opening still says which envelope they are.
    const error = /^\s*\{\s*"errors"\s*:\s*\{\s*"code"\s*:\s*"?(\d{3})\b/.exec(response)
    if (error) return { outcome: 'error', code: Number(error[1]) }
    if (/^\s*\{\s*"results"\s*:/.test(response)) return { outcome: 'success', code: 200 }
    return { outcome: 'unknown' }
  }
  if (!isObject(body)) return { outcome: 'unknown' }
  if (isObject(body.errors)) {
    const raw = body.errors.code
    const code = typeof raw === 'string' && /^\d{3}$/.test(raw) ? Number(raw) : raw
    return { outcome: 'error', code: isStatusCode(code) ? code : undefined }
  }
  if ('results' in body) return { outcome: 'success', code: 200 }
  return { outcome: 'unknown' }
}

/** A row of the log list: the entry without its bodies, and its status read once. */
export type LogRow = {
  request_id: string
  datetime: string
  method: string
  path: string
  status: LogStatus
}

export function logRow(e: LogEntry): LogRow {
  return {
    request_id: e.request_id,
    datetime: e.datetime,
    method: e.method,
    path: e.path,
    status: logStatus(e.response),
  }
}

export interface LogFilter {
  method: string
  /** Part of the path, any case. */
  path: string
  /** YYYY-MM-DD, or '' for any day. */
  date: string
  errorsOnly: boolean
}

export const filterActive = (f: LogFilter) => Boolean(f.method || f.path.trim() || f.date || f.errorsOnly)

export function matchesLogFilter(row: LogRow, f: LogFilter): boolean {
  const path = f.path.trim().toLowerCase()
  return (
    (!f.method || row.method === f.method) &&
    (!path || row.path.toLowerCase().includes(path)) &&
    (!f.date || row.datetime.startsWith(f.date)) &&
    (!f.errorsOnly || row.status.outcome === 'error')
  )
}

/**
 * Whether the pages after this one can still hold entries of the filter's date: the log comes
 * in date order, so once a page ends past the date (older when newest come first, newer when
 * oldest come first), every later page does too.
 */
export function pastDate(page: readonly LogRow[], date: string, newestFirst: boolean): boolean {
  const last = page.at(-1)?.datetime.slice(0, 10)
  if (!date || !last) return false
  return newestFirst ? last < date : last > date
}
