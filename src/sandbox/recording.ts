/** What tests inspect afterwards: every request as received, and how many were served at once. */
import type { ServerResponse } from 'node:http'
import type { OperationName } from './operations'

export interface RecordedRequest {
  endpoint: OperationName | undefined
  method: string
  /** Path as received, including /v1 and the query string. */
  url: string
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  /** Raw body text ('' when none). */
  rawBody: string
  /** The body parsed as JSON, or undefined. */
  body: unknown
  /** The status answered: 0 while unanswered, -1 when the connection was dropped. */
  status: number
}

/** The requests received, oldest first, capped at `max` (oldest dropped); tests hold on to the array itself. */
export function createRecorder(max: number): { received: RecordedRequest[]; add(entry: RecordedRequest): void } {
  const received: RecordedRequest[] = []
  return {
    received,
    add(entry) {
      if (max <= 0) return
      received.push(entry)
      if (received.length > max) received.splice(0, received.length - max)
    },
  }
}

export interface LoadCounters {
  inFlight: number
  maxInFlight: number
  reset(): void
}

/** Requests being served now, and the most at once since the last reset. */
export function createLoadCounters(): LoadCounters {
  const load: LoadCounters = {
    inFlight: 0,
    maxInFlight: 0,
    reset() {
      load.maxInFlight = load.inFlight
    },
  }
  return load
}

/** Counts a request in flight until its response closes (answered, dropped, or the sandbox closed). */
export function trackInFlight(load: LoadCounters, res: ServerResponse): void {
  load.inFlight++
  load.maxInFlight = Math.max(load.maxInFlight, load.inFlight)
  let done = false
  res.on('close', () => {
    if (!done) load.inFlight--
    done = true
  })
}
