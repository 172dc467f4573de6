/**
 * The HTTP client of the API: one generic, typed call driven by the endpoint table, plus
 * listAll for paged lists. Requests follow API-SPEC.md section 5.
 *
 * Two ways in: `call` / `send` / `listAll` validate their input against the table (for
 * callers inside the main process and tests); `callParsed` / `listAllParsed` take parameters
 * that were already validated once, at the IPC boundary, and do not validate them again.
 */
import { request, type Dispatcher } from 'undici'
import {
  endpoints,
  paramLocation,
  parseEndpointParams,
  isSafePathSegment,
  SERVER_KINDS,
  type EndpointDef,
  type EndpointInput,
  type EndpointName,
  type EndpointParams,
  type EndpointResult,
  type PagedEndpointName,
  type PagedInput,
  type PagedItem,
  type PagedParams,
  type ServerKind,
} from '@shared/endpoints/table'
import { errorBodySchema, pagingSchema } from '@shared/endpoints/decoders'
import { kindForStatus } from '@shared/errors'
import { DEFAULT_TIMEOUT_MS } from '@shared/service/constants'
import { parseWith } from '@shared/errors/field-issues'
import { AppError } from '../base/app-error'
import { answerRedactor } from './errors'
import { redactedWith, secretMatcher } from '../base/redaction'
import { checkBaseUrl } from './base-url'
import { Pacer } from './pacer'
import { APP_VERSION } from '../base/app-version'
import { listAllPages, type ListAllOptions } from './paging'
import type { Envelope } from './envelope'
export type { Envelope } from './envelope'

/** The whole decoded answer to operation N: its results with paging and request_id. */
type EnvelopeOf<N extends EndpointName> = Envelope<EndpointResult<N>>

/**
 * The service's words when a token is used from an address outside its allowed list (as users
 * met it: "access from this IP address is not permitted for this token"); no recording has it.
 */
const ADDRESS_REFUSED = /\bIP address\b.*\bnot (?:permitted|allowed)\b/i

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
  /** Names the app to the service (its CDN turns away requests without a meaningful one). */
  userAgent?: string
  /** Paces the key's requests after a 429; one per key, shared by every call with it. */
  pacer?: Pacer
}

/** The User-Agent every request carries unless told otherwise. */
const DEFAULT_USER_AGENT = `HostingAdmin/${APP_VERSION} (+node; ${process.platform})`

export interface CallOptions {
  signal?: AbortSignal
  /** Told before each wait out of the service's rate limit (a block after a 429), with about how long, in ms. */
  onRateLimitWait?: (waitMs: number) => void
}

/** A decoded response envelope. */

const DEFAULT_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 300 }
const RETRYABLE_KINDS = new Set(['unavailable', 'gateway-timeout', 'network'])
/** A 429 is answered by waiting (the pacer says how long) and sending again, reads and writes alike, within the call's total time-out; this caps the rounds. */
const MAX_RATE_LIMITED_ROUNDS = 50

/** A request ID as the service gives them; anything else from the outside is not passed on. */
const PLAUSIBLE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/

export interface ApiClient {
  /** One operation; resolves to its decoded `results`. */
  call<N extends EndpointName>(name: N, input: EndpointInput<N>, opts?: CallOptions): Promise<EndpointResult<N>>
  /** One operation; resolves to the whole decoded envelope (results, paging, request_id). */
  send<N extends EndpointName>(name: N, input: EndpointInput<N>, opts?: CallOptions): Promise<EnvelopeOf<N>>
  /** Every item of a paged list. */
  listAll<N extends PagedEndpointName>(name: N, input: PagedInput<N>, opts?: ListAllOptions): Promise<PagedItem<N>[]>
  /** One operation with parameters validated already (at the IPC boundary). */
  callParsed<N extends EndpointName>(name: N, params: EndpointParams<N>, opts?: CallOptions): Promise<EndpointResult<N>>
  /** The same, answering the whole envelope (results and request_id). */
  sendParsed<N extends EndpointName>(name: N, params: EndpointParams<N>, opts?: CallOptions): Promise<EnvelopeOf<N>>
  /** The method, path (as the service's log records it) and JSON body a call would send. */
  describeRequest<N extends EndpointName>(
    name: N,
    params: EndpointParams<N>,
  ): { method: string; path: string; body: string | undefined }
  /** Every item of a paged list, with parameters validated already. */
  listAllParsed<N extends PagedEndpointName>(
    name: N,
    params: PagedParams<N>,
    opts?: ListAllOptions,
  ): Promise<PagedItem<N>[]>
  /** A text from the service (a logged answer) without this client's key, in every form it may take there. */
  withoutKey(text: string): string
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = checkBaseUrl(options.baseUrl)
  const apiKey = options.apiKey
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const retry = options.retry ?? DEFAULT_RETRY
  const maxBytes = options.maxResponseBytes ?? 64 * 1024 * 1024
  const pacer = options.pacer ?? new Pacer({ firstProbeMs: retry.baseDelayMs })
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT
  /** The key in every form a text may carry it (percent-encoded in either case, folded, hex, base64). */
  const keyMatcher = secretMatcher([apiKey])
  const withoutKey = (text: string): string => redactedWith(text, keyMatcher)
  /** Takes the key out of every text of a decoded answer, in place: whatever field the service echoes it in. */
  const redactAnswer = answerRedactor(apiKey)
  /** A request ID from a header or a body: kept only if it looks like one, and never with the key in it. */
  const plausibleId = (v: unknown): string | undefined =>
    typeof v === 'string' && PLAUSIBLE_REQUEST_ID.test(v) && withoutKey(v) === v ? v : undefined

  function buildRequest(def: EndpointDef, params: Record<string, unknown>) {
    const query = new URLSearchParams()
    const body: Record<string, unknown> = {}
    let hasBody = false
    const pathValues: Record<string, string> = {}
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined) continue
      const where = paramLocation(def, name)
      if (where === 'path') {
        const segment = name === 'kind' && isServerKind(value) ? options.serverPaths[value] : String(value)
        // The table's schemas already hold every path value to its shape; this is the last line
        // of defence, so no value can ever make URL parsing send the request somewhere else.
        if (!isSafePathSegment(segment))
          throw AppError.invalid('request.invalid', [{ path: name, code: 'field.pathSegment' }])
        pathValues[name] = segment
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

  async function attempt(
    def: EndpointDef,
    url: string,
    json: string | undefined,
    signal: AbortSignal,
  ): Promise<Envelope<unknown>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
      'user-agent': userAgent,
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
    let answer: { text: string; bytes: number }
    try {
      answer = await readBody(res, maxBytes)
    } catch (err) {
      // A success whose answer is too large to keep: the service did act (a write is done), only
      // its answer is not kept; never a failure, which would invite sending it again.
      if (
        err instanceof AppError &&
        err.data.code === 'http.tooLarge' &&
        res.statusCode >= 200 &&
        res.statusCode < 300
      ) {
        throw AppError.of('malformed-response', {
          code: 'http.answerNotKept',
          status: res.statusCode,
          params: { bytes: maxBytes },
          requestId: plausibleId(res.headers['x-request-id']),
        })
      }
      throw transportError(err, signal)
    }
    const { text, bytes } = answer
    const requestIdFromHeader = plausibleId(res.headers['x-request-id'])
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const error = statusError(def, res.statusCode, text, requestIdFromHeader)
      if (error.kind === 'redirect') {
        // Never followed: a base URL that redirects is a base URL to correct.
        const location = res.headers.location
        error.data.params = { location: withoutKey(typeof location === 'string' ? location : '').slice(0, 300) }
        error.data.code = 'http.redirect'
      }
      if (error.kind === 'rate-limited') error.retryAfterMs = retryAfterMs(res.headers['retry-after'])
      throw error
    }
    return decodeEnvelope(def, text, bytes, res.statusCode, requestIdFromHeader)
  }

  function decodeEnvelope(
    def: EndpointDef,
    text: string,
    bytes: number,
    status: number,
    headerId: string | undefined,
  ): Envelope<unknown> {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw AppError.of('malformed-response', { code: 'http.notJson', status, requestId: headerId })
    }
    redactAnswer(parsed)
    if (typeof parsed !== 'object' || parsed === null || !('results' in parsed)) {
      throw AppError.of('malformed-response', { code: 'http.noResults', status, requestId: headerId })
    }
    const requestId = ('request_id' in parsed ? plausibleId(parsed.request_id) : undefined) ?? headerId
    const results = parseWith(def.result, parsed.results)
    if (!results.ok) {
      const field = results.issues[0]?.path || 'results'
      throw AppError.of('malformed-response', { code: 'http.badField', params: { field }, status, requestId })
    }
    const envelope: Envelope<unknown> = { results: results.value, bytes }
    if (requestId !== undefined) envelope.requestId = requestId
    if ('paging' in parsed && parsed.paging !== undefined) {
      const paging = pagingSchema.safeParse(parsed.paging)
      if (paging.success) envelope.paging = paging.data
    }
    return envelope
  }

  function statusError(def: EndpointDef, status: number, text: string, headerId: string | undefined): AppError {
    const kind = kindForStatus(status)
    let message: string | undefined
    let requestId = headerId
    try {
      const answer: unknown = JSON.parse(text)
      redactAnswer(answer)
      const body = errorBodySchema.safeParse(answer)
      if (body.success) {
        const e = body.data.errors
        if (typeof e === 'string') message = e
        else if (Array.isArray(e))
          message = e
            .map((x) => x.message)
            .filter(Boolean)
            .join('; ')
        else if (e && e.message !== undefined) message = Array.isArray(e.message) ? e.message.join('; ') : e.message
        message = message || body.data.message
        requestId = plausibleId(body.data.request_id) ?? requestId
      }
    } catch {
      // Not JSON (a proxy's HTML page, say): the default wording for the status stands.
    }
    // The service's own words, kept apart from ours; never the key.
    const serviceMessage = message ? withoutKey(message).slice(0, 2000) : undefined
    // A refusal names what was refused: a read is not a matter of write access.
    if (kind === 'forbidden') {
      // The token's allowed addresses leave this computer out: the key is right, the list is what to fix.
      const fromAddress = serviceMessage !== undefined && ADDRESS_REFUSED.test(serviceMessage)
      const code = fromAddress
        ? 'error.forbiddenAddress'
        : def.method === 'GET'
          ? 'error.forbiddenRead'
          : 'error.forbiddenWrite'
      return AppError.of(kind, {
        code,
        params: { request: `${def.method} ${def.path}` },
        status,
        serviceMessage,
        requestId,
      })
    }
    return AppError.of(kind, { status, serviceMessage, requestId })
  }

  function transportError(err: unknown, signal: AbortSignal): AppError {
    if (err instanceof AppError) return err
    if (signal.aborted) {
      const reason: unknown = signal.reason
      if (reason instanceof AppError) return reason
      return AppError.of('cancelled')
    }
    const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : ''
    const detail = err instanceof Error ? withoutKey(err.message) : ''
    // A refusal names where it came from, in words first; the system's code follows.
    const address = /\bECONNREFUSED\s+(\S+)$/.exec(detail)?.[1]
    if (code === 'ECONNREFUSED' && address) {
      return AppError.of('network', {
        code: 'http.refused',
        params: { address, detail: [code, detail].filter(Boolean).join(': '), errno: code },
      })
    }
    // errno tells whether anything left this machine (see src/main/jobs/outcome.ts).
    return AppError.of('network', {
      code: 'http.network',
      params: { detail: [code, detail].filter(Boolean).join(': '), errno: code },
    })
  }

  async function send<N extends EndpointName>(
    name: N,
    input: EndpointInput<N>,
    opts: CallOptions = {},
  ): Promise<EnvelopeOf<N>> {
    const params = parseEndpointParams(name, input)
    if (!params.ok) throw AppError.invalid('request.invalid', params.issues, { operation: name })
    return sendParsed(name, params.value, opts)
  }

  async function sendParsed<N extends EndpointName>(
    name: N,
    params: EndpointParams<N>,
    opts: CallOptions = {},
  ): Promise<EnvelopeOf<N>> {
    const def: EndpointDef = endpoints[name]
    const { url, json } = buildRequest(def, params)

    // One controller per call: aborted by the caller's signal or by the total time-out,
    // with the reason telling which.
    const controller = new AbortController()
    const onCallerAbort = () => controller.abort(AppError.of('cancelled'))
    if (opts.signal?.aborted) onCallerAbort()
    opts.signal?.addEventListener('abort', onCallerAbort, { once: true })
    const timer = setTimeout(
      () =>
        controller.abort(
          AppError.of('timeout', { code: 'http.timeout', params: { seconds: Math.round(timeoutMs / 1000) } }),
        ),
      timeoutMs,
    )
    try {
      const attempts = def.retry === 'safe' ? retry.attempts + 1 : 1
      let failures = 0
      let lastLimited: AppError | undefined
      // A wait between attempts that the total time-out ends: nothing is in flight, so the
      // outcome is the last answer (a 429: not done), never an unknown one.
      const waitFor = <T>(p: Promise<T>): Promise<T> =>
        p.catch((): never => {
          const reason: unknown = controller.signal.reason
          if (reason instanceof AppError && reason.kind === 'timeout') throw lastLimited ?? AppError.of('rate-limited')
          throw transportError(null, controller.signal)
        })
      for (let limited = 0; ;) {
        const slot = await waitFor(pacer.take(controller.signal, opts.onRateLimitWait))
        let e: AppError
        try {
          if (controller.signal.aborted) throw transportError(null, controller.signal)
          // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- decodeEnvelope checked the results with this operation's schema; only the generic name's link to its type is stated
          const envelope = (await attempt(def, url, json, controller.signal)) as EnvelopeOf<N>
          pacer.passed(slot)
          return envelope
        } catch (err) {
          e = err instanceof AppError ? err : transportError(err, controller.signal)
        }
        if (e.status === 429) {
          // The service did not act on the request: reads and writes alike go again, the same
          // request, once the pacer lets them (after the service's block), until the call's
          // total time-out.
          pacer.limited(slot, e.retryAfterMs)
          lastLimited = e
          if (++limited > MAX_RATE_LIMITED_ROUNDS) throw e
          continue
        }
        if (e.status !== undefined) pacer.passed(slot)
        else pacer.abandoned(slot)
        if (++failures >= attempts || !RETRYABLE_KINDS.has(e.kind)) throw e
        await backoff(retry.baseDelayMs * 2 ** (failures - 1), controller.signal)
      }
    } finally {
      clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onCallerAbort)
    }
  }

  function listAllParsed<N extends PagedEndpointName>(
    name: N,
    params: PagedParams<N>,
    opts: ListAllOptions = {},
  ): Promise<PagedItem<N>[]> {
    // Each page is the validated parameters plus the paging members; TypeScript cannot see
    // that an Omit<> put back together is the whole again, hence the one assertion here.
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- see above
    const pageParams = (page: number, limit: number) => ({ ...params, page, limit }) as EndpointParams<N>
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- each page's items were decoded with this list's schema (decodeEnvelope)
    return listAllPages(
      (page, limit, signal) => sendParsed(name, pageParams(page, limit), { signal }),
      opts,
    ) as Promise<PagedItem<N>[]>
  }

  return {
    send,
    sendParsed,
    describeRequest(name, params) {
      const def: EndpointDef = endpoints[name]
      const { url, json } = buildRequest(def, params)
      const u = new URL(url)
      return { method: def.method, path: `${u.pathname}${u.search}`, body: json }
    },
    async call(name, input, opts) {
      return (await send(name, input, opts)).results
    },
    async callParsed(name, params, opts) {
      return (await sendParsed(name, params, opts)).results
    },
    listAll(name, input, opts = {}) {
      const params = parseEndpointParams(name, input)
      if (!params.ok) return Promise.reject(AppError.invalid('request.invalid', params.issues, { operation: name }))
      return listAllParsed(name, params.value, opts)
    },
    listAllParsed,
    withoutKey,
  }
}

/** Retry-After as milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
/**
 * The longest Retry-After waited for. A larger one is waited for this long (a timer cannot hold
 * more than 2^31 - 1 ms, and a longer one fires at once: the request would go again at once);
 * the call's own total time-out usually ends the wait first, as "rate limited", nothing done.
 */
export const MAX_RETRY_AFTER_MS = 15 * 60_000

export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(header) ? header[0] : header
  if (!v) return undefined
  if (/^\d+$/.test(v.trim())) return Math.min(MAX_RETRY_AFTER_MS, Number(v.trim()) * 1000)
  const at = Date.parse(v)
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now))
}

const isServerKind = (v: unknown): v is ServerKind => typeof v === 'string' && SERVER_KINDS.some((k) => k === v)

/** A response body as text, and its size in bytes as received. */
async function readBody(res: Dispatcher.ResponseData, maxBytes: number): Promise<{ text: string; bytes: number }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res.body) {
    const buf: unknown = chunk
    // undici hands the body over as Buffers; anything else is no answer this client can read.
    if (!Buffer.isBuffer(buf)) throw AppError.of('malformed-response', { code: 'http.notJson' })
    size += buf.length
    if (size > maxBytes) {
      res.body.destroy()
      throw AppError.of('malformed-response', { code: 'http.tooLarge', params: { bytes: maxBytes } })
    }
    chunks.push(buf)
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes: size }
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
      reject(signal.reason instanceof AppError ? signal.reason : AppError.of('cancelled'))
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
