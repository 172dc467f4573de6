/**
 * The API client: one generic, typed `call` driven by the endpoint table, plus
 * `listAll` for paged lists. Requests follow API-SPEC.md section 5.
 */
import { request, type Dispatcher } from 'undici'
import {
  endpoints,
  paramLocation,
  type EndpointDef,
  type EndpointInput,
  type EndpointName,
  type EndpointResult,
  type PagedEndpointName,
  type PagedInput,
  type PagedItem,
  type ServerKind,
} from '../../shared/endpoints/table'
import { errorBodySchema, pagingSchema, type Paging } from '../../shared/endpoints/decoders'
import { kindForStatus } from '../../shared/errors'
import { ACTION_HINTS, ApiError, DEFAULT_MESSAGES, redact } from './errors'
import { checkBaseUrl } from './base-url'
import { listAllPages, type ListAllOptions } from './paging'

export interface RetryPolicy {
  /** Further attempts after the first, for reads only. */
  attempts: number
  /** First back-off; doubles each time, with jitter. */
  baseDelayMs: number
}

export interface ApiClientOptions {
  baseUrl: string
  apiKey: string
  /** The account's path word for each server kind (the spec's {servers}). */
  serverPaths: Record<ServerKind, string>
  /** Total time-out of one call, retries included. */
  timeoutMs?: number
  dispatcher?: Dispatcher
  retry?: RetryPolicy
  /** Largest response body accepted, in bytes. */
  maxResponseBytes?: number
}

export interface CallOptions {
  signal?: AbortSignal
}

/** A decoded response envelope. */
export interface Envelope<T> {
  results: T
  paging?: Paging
  requestId?: string
}

export const DEFAULT_TIMEOUT_MS = 120_000
const DEFAULT_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 300 }
const RETRYABLE_KINDS = new Set(['unavailable', 'gateway-timeout', 'network'])

export interface ApiClient {
  /** One operation; resolves to its decoded `results`. */
  call<N extends EndpointName>(name: N, input: EndpointInput<N>, opts?: CallOptions): Promise<EndpointResult<N>>
  /** One operation; resolves to the whole decoded envelope (results, paging, request_id). */
  send<N extends EndpointName>(name: N, input: EndpointInput<N>, opts?: CallOptions): Promise<Envelope<EndpointResult<N>>>
  /** Every item of a paged list. */
  listAll<N extends PagedEndpointName>(name: N, input: PagedInput<N>, opts?: ListAllOptions): Promise<PagedItem<N>[]>
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = checkBaseUrl(options.baseUrl)
  const apiKey = options.apiKey
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const retry = options.retry ?? DEFAULT_RETRY
  const maxBytes = options.maxResponseBytes ?? 64 * 1024 * 1024

  function buildRequest(def: EndpointDef, params: Record<string, unknown>) {
    const query = new URLSearchParams()
    const body: Record<string, unknown> = {}
    let hasBody = false
    const pathValues: Record<string, string> = {}
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined) continue
      const where = paramLocation(def, name)
      if (where === 'path') {
        pathValues[name] = name === 'kind' ? options.serverPaths[value as ServerKind] : String(value)
      } else if (where === 'query') {
        query.set(name, String(value))
      } else {
        body[name] = value
        hasBody = true
      }
    }
    const path = def.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? ''))
    const qs = query.toString()
    const url = `${base}${path}${qs ? `?${qs}` : ''}`
    const json = hasBody || def.method === 'POST' || def.method === 'PUT' ? JSON.stringify(body) : undefined
    return { url, json }
  }

  async function attempt(def: EndpointDef, url: string, json: string | undefined, signal: AbortSignal): Promise<Envelope<unknown>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
    }
    if (json !== undefined) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = String(Buffer.byteLength(json))
    }
    // POST and PUT always carry a JSON body (possibly {}) with its Content-Length. A DELETE has
    // no body, and undici then sends no Content-Length, as RFC 7230 section 3.3.2 asks.
    const body = json
    let res: Dispatcher.ResponseData
    try {
      res = await request(url, {
        method: def.method,
        headers,
        body,
        signal,
        dispatcher: options.dispatcher,
        // Our own total time-out governs; undici's defaults (300 s) would outlast it.
        headersTimeout: 0,
        bodyTimeout: 0,
      })
    } catch (err) {
      throw transportError(err, signal)
    }
    let text: string
    try {
      text = await readBody(res, maxBytes)
    } catch (err) {
      throw transportError(err, signal)
    }
    const headerId = res.headers['x-request-id']
    const requestIdFromHeader = typeof headerId === 'string' ? headerId : undefined
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw statusError(res.statusCode, text, requestIdFromHeader)
    }
    return decodeEnvelope(def, text, res.statusCode, requestIdFromHeader)
  }

  function decodeEnvelope(def: EndpointDef, text: string, status: number, headerId: string | undefined): Envelope<unknown> {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new ApiError('malformed-response', `${DEFAULT_MESSAGES['malformed-response']} (the body is not JSON)`, {
        status,
        requestId: headerId,
      })
    }
    if (typeof parsed !== 'object' || parsed === null || !('results' in parsed)) {
      throw new ApiError('malformed-response', `${DEFAULT_MESSAGES['malformed-response']} (no results member)`, {
        status,
        requestId: headerId,
      })
    }
    const env = parsed as { results: unknown; paging?: unknown; request_id?: unknown }
    const requestId = typeof env.request_id === 'string' ? env.request_id : headerId
    const results = def.result.safeParse(env.results)
    if (!results.success) {
      const first = results.error.issues[0]
      const where = first ? first.path.join('.') || 'results' : 'results'
      throw new ApiError('malformed-response', `${DEFAULT_MESSAGES['malformed-response']} (${where}: ${first?.message ?? 'invalid'})`, {
        status,
        requestId,
      })
    }
    const envelope: Envelope<unknown> = { results: results.data }
    if (requestId !== undefined) envelope.requestId = requestId
    if (env.paging !== undefined) {
      const paging = pagingSchema.safeParse(env.paging)
      if (paging.success) envelope.paging = paging.data
    }
    return envelope
  }

  function statusError(status: number, text: string, headerId: string | undefined): ApiError {
    const kind = kindForStatus(status)
    let message: string | undefined
    let requestId = headerId
    try {
      const body = errorBodySchema.safeParse(JSON.parse(text))
      if (body.success) {
        const e = body.data.errors
        if (typeof e === 'string') message = e
        else if (Array.isArray(e)) message = e.map((x) => x.message).filter(Boolean).join('; ')
        else if (e && e.message !== undefined) message = Array.isArray(e.message) ? e.message.join('; ') : e.message
        message = message || body.data.message
        requestId = body.data.request_id ?? requestId
      }
    } catch {
      // Not JSON (a proxy's HTML page, say): the default wording for the status stands.
    }
    const hint = ACTION_HINTS[kind]
    const text400 = message ? `${redact(message, apiKey).slice(0, 2000)}${hint ? ` ${hint}` : ''}` : DEFAULT_MESSAGES[kind]
    const opts: { status: number; requestId?: string } = { status }
    if (requestId !== undefined) opts.requestId = requestId
    return new ApiError(kind, text400, opts)
  }

  function transportError(err: unknown, signal: AbortSignal): ApiError {
    if (err instanceof ApiError) return err
    if (signal.aborted) {
      const reason: unknown = signal.reason
      if (reason instanceof ApiError) return reason
      return new ApiError('cancelled', DEFAULT_MESSAGES.cancelled)
    }
    const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : ''
    const detail = err instanceof Error ? redact(err.message, apiKey) : ''
    return new ApiError('network', `${DEFAULT_MESSAGES.network}${code || detail ? ` (${[code, detail].filter(Boolean).join(': ')})` : ''}`)
  }

  async function send<N extends EndpointName>(
    name: N,
    input: EndpointInput<N>,
    opts: CallOptions = {},
  ): Promise<Envelope<EndpointResult<N>>> {
    const def: EndpointDef = endpoints[name]
    const params = def.params.safeParse(input)
    if (!params.success) {
      const issues = params.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
      throw new ApiError('validation', `Invalid ${name} request: ${issues.map((i) => `${i.path || 'input'} ${i.message}`).join('; ')}`, {
        issues,
      })
    }
    const { url, json } = buildRequest(def, params.data as Record<string, unknown>)

    // One controller per call: aborted by the caller's signal or by the total time-out,
    // with the reason telling which.
    const controller = new AbortController()
    const onCallerAbort = () => controller.abort(new ApiError('cancelled', DEFAULT_MESSAGES.cancelled))
    if (opts.signal?.aborted) onCallerAbort()
    opts.signal?.addEventListener('abort', onCallerAbort, { once: true })
    const timer = setTimeout(
      () => controller.abort(new ApiError('timeout', `${DEFAULT_MESSAGES.timeout} (limit ${Math.round(timeoutMs / 1000)} s)`)),
      timeoutMs,
    )
    try {
      const attempts = def.retry === 'safe' ? retry.attempts + 1 : 1
      for (let i = 0; ; i++) {
        try {
          if (controller.signal.aborted) throw transportError(null, controller.signal)
          return (await attempt(def, url, json, controller.signal)) as Envelope<EndpointResult<N>>
        } catch (err) {
          const e = err instanceof ApiError ? err : transportError(err, controller.signal)
          if (i + 1 >= attempts || !RETRYABLE_KINDS.has(e.kind)) throw e
          await backoff(retry.baseDelayMs * 2 ** i, controller.signal)
        }
      }
    } finally {
      clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onCallerAbort)
    }
  }

  return {
    send,
    async call(name, input, opts) {
      return (await send(name, input, opts)).results
    },
    listAll(name, input, opts = {}) {
      return listAllPages((page, limit, signal) => send(name, { ...input, page, limit } as EndpointInput<typeof name>, { signal }), opts) as Promise<
        PagedItem<typeof name>[]
      >
    },
  }
}

async function readBody(res: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res.body) {
    const buf = chunk as Buffer
    size += buf.length
    if (size > maxBytes) {
      res.body.destroy()
      throw new ApiError('malformed-response', `The response was larger than ${maxBytes} bytes.`)
    }
    chunks.push(buf)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function backoff(ms: number, signal: AbortSignal): Promise<void> {
  const jittered = ms * (0.75 + Math.random() * 0.5)
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, jittered)
    const onAbort = () => {
      clearTimeout(t)
      reject(signal.reason instanceof ApiError ? signal.reason : new ApiError('cancelled', DEFAULT_MESSAGES.cancelled))
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
