/**
 * One request, start to finish: record it, check the key, let an injected fault take it,
 * route it, gather and validate its parameters, run its handler, answer in the envelope,
 * and log it into the account's request log as the service would.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ServerKind } from '@shared/service/constants'
import type { OperationName } from './operations'
import { dateTime } from './dates'
import { applyFault, type FaultSpec, type TakenFault } from './faults'
import type { PagingOptions } from './handler-types'
import type { ServiceBehaviour } from './behaviour'
import { runHandler } from './handlers'
import { SandboxHttpError } from './http-error'
import type { RecordedRequest } from './recording'
import { callerAddress, DDNS_PATH, serveDynamicDns } from './ddns'
import { gatherParams, matchRoute, type Route } from './routes'
import type { LogRec, SandboxState } from './state'

export interface ServeContext {
  routes: Route[]
  kindByWord: ReadonlyMap<string, ServerKind>
  keys: { full: string; readOnly: string; members: readonly string[] }
  paging: PagingOptions
  /** Added to every request (SandboxOptions.latencyMs). */
  latencyMs: number | undefined
  maxLogEntries: number
  /** Bodies past this many bytes are refused (413) and not read further. */
  maxBodyBytes: number
  newRequestId(): string
  /** Read per request: tests may replace the state while the sandbox runs. */
  state(): SandboxState
  /** Called after every successful change. */
  save(): void
  record(entry: RecordedRequest): void
  takeFault(name: OperationName | undefined): TakenFault | undefined
  service: ServiceBehaviour
  /** True when the key may send a request now (the rate limit). */
  allow(key: string): boolean
}

/** The longest response and request texts kept in a log entry. */
const LOGGED_RESPONSE_CHARS = 4000
const LOGGED_REQUEST_CHARS = 16_000

/** Request ids for one sandbox: unique, and in the order the requests arrived. */
export function requestIds(): () => string {
  let counter = 0
  return () =>
    `req-${Date.now().toString(36)}-${(++counter).toString(36).padStart(4, '0')}${randomBytes(2).toString('hex')}`
}

/** The body as text, or undefined once it passes `max` bytes (reading stops there). */
async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of req) {
    const chunk = Buffer.isBuffer(c) ? c : Buffer.from(String(c))
    size += chunk.length
    if (size > max) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Answers and closes the connection without reading what is left of the request. */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' })
  res.end(JSON.stringify(payload), () => req.destroy())
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return undefined
  }
}

function flatHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v
  return headers
}

function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function appendLog(state: SandboxState, entry: LogRec, max: number): void {
  state.logs.push(entry)
  if (state.logs.length > max) state.logs.splice(0, state.logs.length - max)
}

export async function serveRequest(ctx: ServeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid')
  const method = req.method ?? 'GET'
  const query = Object.fromEntries(url.searchParams)
  const headers = flatHeaders(req.headers)
  const relPath = url.pathname.startsWith('/v1/') || url.pathname === '/v1' ? url.pathname.slice(3) : undefined
  const match = relPath !== undefined ? matchRoute(ctx.routes, method, relPath) : undefined
  const record: RecordedRequest = {
    endpoint: match?.route.name,
    method,
    url: req.url ?? '',
    path: url.pathname,
    query,
    headers,
    rawBody: '',
    body: undefined,
    status: 0,
  }
  // Recorded as it arrives; its body is filled in once read.
  ctx.record(record)

  if (ctx.latencyMs) await sleep(ctx.latencyMs)

  if (url.pathname === DDNS_PATH && (method === 'GET' || method === 'POST')) {
    // Recorded without the password it carries in its query.
    if (record.query.p !== undefined) record.query = { ...record.query, p: '(password)' }
    record.url = url.pathname
    // A form POST (as some updaters send it) carries the same parameters in its body.
    const params = new URLSearchParams(url.searchParams)
    if (method === 'POST') {
      const form = new URLSearchParams((await readBody(req, ctx.maxBodyBytes)) ?? '')
      for (const [k, v] of form) params.set(k, v)
    }
    const served = serveDynamicDns(ctx.state(), params, callerAddress(req.socket.remoteAddress))
    if (served.changed) ctx.save()
    record.status = 200
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
    res.end(served.text)
    return
  }

  // The key is checked before a byte of the body is read: a caller without one costs nothing.
  const auth = headers.authorization ?? ''
  const token = auth.startsWith('Bearer ') ? auth.slice(7) : ''
  if (token !== ctx.keys.full && token !== ctx.keys.readOnly && !ctx.keys.members.includes(token)) {
    // A call without a valid key belongs to no account, so no account's log shows it.
    record.status = 401
    return refuse(req, res, 401, {
      errors: { code: 401, message: 'Unauthorized: the API key is missing or invalid.' },
      request_id: ctx.newRequestId(),
    })
  }
  const rawBody = await readBody(req, ctx.maxBodyBytes)
  if (rawBody === undefined) {
    record.status = 413
    return refuse(req, res, 413, {
      errors: { code: 413, message: `Request body too large (over ${ctx.maxBodyBytes} bytes).` },
      request_id: ctx.newRequestId(),
    })
  }
  const body = parseJson(rawBody)
  record.rawBody = rawBody
  record.body = body

  const requestId = ctx.newRequestId()
  // Set once the fault for this request is known (after the key is checked).
  const answer: { lost: FaultSpec['lostAnswer'] } = { lost: undefined }
  const send = (status: number, payload: unknown, logIt: boolean) => {
    const text = JSON.stringify(payload)
    record.status = status
    if (logIt) log(text)
    if (answer.lost === 'reset') {
      record.status = -1
      req.socket.destroy()
      return
    }
    if (answer.lost === 'hang') return // the socket stays open until close() destroys it
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId })
    res.end(text)
  }
  const log = (text: string) => {
    const response = text.length > LOGGED_RESPONSE_CHARS ? `${text.slice(0, LOGGED_RESPONSE_CHARS)}…` : text
    const entry: LogRec = {
      request_id: requestId,
      datetime: dateTime(new Date()),
      method,
      path: url.pathname + url.search,
      request: rawBody.length > LOGGED_REQUEST_CHARS ? `${rawBody.slice(0, LOGGED_REQUEST_CHARS)}…` : rawBody,
      response,
      addr: req.socket.remoteAddress ?? '',
    }
    appendLog(ctx.state(), entry, ctx.maxLogEntries)
  }
  const fail = (status: number, message: string, logIt = true, extra: Readonly<Record<string, string | number>> = {}) =>
    send(status, { errors: { ...extra, code: status, message }, request_id: requestId, request: echo() }, logIt)
  /** The call as the service repeats it in every answer: an empty parameter list comes as [] (recorded). */
  const echo = () => {
    const params = { ...query, ...(isJsonObject(body) ? body : {}) }
    return { path: url.pathname, method, params: Object.keys(params).length > 0 ? params : [] }
  }

  if (!ctx.allow(token)) {
    // As the live service was recorded answering (see RateLimit in behaviour.ts): its error
    // body, no Retry-After, nothing done, nothing logged. An empty `params` comes as [] there.
    record.status = 429
    res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId })
    res.end(
      JSON.stringify({
        errors: { code: 429, message: 'Too Many Requests : Too Many Requests.' },
        request_id: requestId,
        request: echo(),
      }),
    )
    return
  }

  const fault = ctx.takeFault(match?.route.name)
  answer.lost = fault?.lostAnswer
  const faulted = await applyFault(fault, {
    fail,
    raw(status, contentType, text) {
      record.status = status
      res.writeHead(status, { 'content-type': contentType })
      res.end(text)
    },
    drop() {
      record.status = -1
      req.socket.destroy()
    },
  })
  if (faulted) return

  if (!match) return fail(404, `No such operation: ${method} ${url.pathname}`)
  const { route, pathValues } = match
  if (token === ctx.keys.readOnly && method !== 'GET') return fail(403, 'Forbidden: this API key is read-only.')
  if (rawBody && body === undefined) return fail(400, 'The request body is not valid JSON.')

  const bodyParams = isJsonObject(body) ? body : {}
  const parsed = route.def.params.safeParse(
    gatherParams(route, { pathValues, query, body: bodyParams, kindByWord: ctx.kindByWord }),
  )
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')
    return fail(400, `Invalid parameter. ${msg}`)
  }
  try {
    const out = runHandler(route.name, parsed.data, {
      state: ctx.state(),
      now: new Date(),
      paging: ctx.paging,
      service: ctx.service,
    })
    send(
      200,
      {
        results: out.results,
        ...(out.paging ? { paging: out.paging } : {}),
        request_id: requestId,
        // The live service echoes the call; clients must ignore members they do not know.
        request: echo(),
      },
      true,
    )
    if (method !== 'GET') ctx.save()
  } catch (err) {
    if (err instanceof SandboxHttpError) return fail(err.status, err.message, true, err.extra)
    return fail(500, 'Internal Server Error')
  }
}
