/**
 * A local, stateful stand-in for the whole API, over real HTTP on loopback.
 * Used by the built-in demo account, every test and the benchmarks.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync, renameSync, existsSync } from 'node:fs'
import {
  ENDPOINT_NAMES,
  SERVER_KINDS,
  endpoints,
  paramLocation,
  pathParamNames,
  type EndpointDef,
  type EndpointName,
  type ServerKind,
} from '../shared/endpoints/table'
import { handlers, SandboxHttpError, type HandlerCtx, type PagingOptions } from './handlers'
import { dateTime, seedState, type SandboxState, type SeedOptions } from './state'

export const DEFAULT_SERVER_PATHS: Record<ServerKind, string> = { a: 'webservers', b: 'managedservers', c: 'cloudservers' }
export const DEFAULT_SERVER_LABELS: Record<ServerKind, string> = { a: 'Web servers', b: 'Managed servers', c: 'Cloud servers' }

export interface FaultSpec {
  /** Answer with this status instead of running the handler. */
  status?: 500 | 503 | 504
  /** Wait this long before answering. */
  latencyMs?: number
  /** Destroy the connection without an answer. */
  reset?: boolean
  /** Answer 200 with a body that is not JSON. */
  malformed?: boolean
  /** Never answer (until the sandbox closes). */
  hang?: boolean
  /** Affect only this many matching requests; then the fault is gone. */
  times?: number
}

export interface RecordedRequest {
  endpoint: EndpointName | undefined
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
  status: number
}

export interface SandboxOptions extends SeedOptions {
  host?: string
  port?: number
  serverPaths?: Partial<Record<ServerKind, string>>
  keys?: { full?: string; readOnly?: string }
  /** Added to every request, to stand in for a real network (benchmarks). */
  latencyMs?: number
  paging?: Partial<PagingOptions>
  /** Persist the state to this JSON file after every change, and load it at start. */
  stateFile?: string
  /** Keep at most this many log entries (oldest dropped). */
  maxLogEntries?: number
  /** Keep at most this many recorded requests for tests to inspect. */
  maxRecorded?: number
}

export interface Sandbox {
  /** Base URL, ending in /v1. */
  url: string
  keys: { full: string; readOnly: string }
  serverPaths: Record<ServerKind, string>
  /** The live state; tests may change it directly to stand in for someone else's change. */
  state: SandboxState
  /** Every request received, oldest first. */
  received: RecordedRequest[]
  faults: {
    inject(route: EndpointName | '*', spec: FaultSpec): void
    clear(): void
  }
  /** Requests being served now, and the most at once since the last reset. */
  load: { inFlight: number; maxInFlight: number; reset(): void }
  close(): Promise<void>
}

interface Route {
  name: EndpointName
  def: EndpointDef
  regex: RegExp
  params: string[]
  staticSegments: number
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function buildRoutes(serverPaths: Record<ServerKind, string>): Route[] {
  const words = Object.values(serverPaths).map(escapeRegex).join('|')
  return ENDPOINT_NAMES.map((name) => {
    const def: EndpointDef = endpoints[name]
    const source = def.path.replace(/\{(\w+)\}/g, (_, p: string) => (p === 'kind' ? `(${words})` : '([^/]+)'))
    return {
      name,
      def,
      regex: new RegExp(`^${source}/?$`),
      params: pathParamNames(def.path),
      staticSegments: def.path.split('/').filter((s) => s && !s.startsWith('{')).length,
    }
  })
}

/** The route for a method and path: among matches, the most specific (most literal segments) wins. */
function matchRoute(routes: Route[], method: string, path: string): { route: Route; values: Record<string, string> } | undefined {
  let best: { route: Route; values: Record<string, string> } | undefined
  for (const route of routes) {
    if (route.def.method !== method) continue
    const m = route.regex.exec(path)
    if (!m) continue
    if (best && best.route.staticSegments >= route.staticSegments) continue
    const values: Record<string, string> = {}
    route.params.forEach((p, i) => {
      values[p] = decodeURIComponent(m[i + 1] ?? '')
    })
    best = { route, values }
  }
  return best
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const serverPaths: Record<ServerKind, string> = { ...DEFAULT_SERVER_PATHS, ...options.serverPaths }
  const keys = {
    full: options.keys?.full ?? `sbx_full_${randomBytes(16).toString('hex')}`,
    readOnly: options.keys?.readOnly ?? `sbx_ro_${randomBytes(16).toString('hex')}`,
  }
  const paging: PagingOptions = { pagingMax: 'total', defaultPageSize: 100, maxPageSize: 1000, ...options.paging }
  const maxLogs = options.maxLogEntries ?? 20_000
  const maxRecorded = options.maxRecorded ?? 50_000
  const routes = buildRoutes(serverPaths)
  const kindByWord = new Map(SERVER_KINDS.map((k) => [serverPaths[k], k]))

  let state = loadState(options.stateFile) ?? seedState(options)
  const received: RecordedRequest[] = []
  const faults = new Map<string, FaultSpec>()
  let counter = 0
  const newRequestId = () => `req-${Date.now().toString(36)}-${(++counter).toString(36).padStart(4, '0')}${randomBytes(2).toString('hex')}`

  const takeFault = (name: EndpointName | undefined): FaultSpec | undefined => {
    for (const key of [name, '*']) {
      if (!key) continue
      const f = faults.get(key)
      if (!f) continue
      if (f.times !== undefined) {
        f.times -= 1
        if (f.times <= 0) faults.delete(key)
      }
      return f
    }
    return undefined
  }

  const save = () => {
    if (!options.stateFile) return
    const tmp = `${options.stateFile}.tmp`
    writeFileSync(tmp, JSON.stringify(state))
    renameSync(tmp, options.stateFile)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const rawBody = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid')
    const method = req.method ?? 'GET'
    const query = Object.fromEntries(url.searchParams)
    let body: unknown
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined
    } catch {
      body = undefined
    }
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v

    const relPath = url.pathname.startsWith('/v1/') || url.pathname === '/v1' ? url.pathname.slice(3) : undefined
    const match = relPath !== undefined ? matchRoute(routes, method, relPath) : undefined
    const record: RecordedRequest = {
      endpoint: match?.route.name,
      method,
      url: req.url ?? '',
      path: url.pathname,
      query,
      headers,
      rawBody,
      body,
      status: 0,
    }
    received.push(record)
    if (received.length > maxRecorded) received.splice(0, received.length - maxRecorded)

    const requestId = newRequestId()
    const send = (status: number, payload: unknown, logIt: boolean) => {
      const text = JSON.stringify(payload)
      record.status = status
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId })
      res.end(text)
      if (logIt) {
        state.logs.push({
          request_id: requestId,
          datetime: dateTime(new Date()),
          method,
          path: url.pathname + url.search,
          request: rawBody,
          response: text.length > 4000 ? `${text.slice(0, 4000)}…` : text,
          addr: req.socket.remoteAddress ?? '',
        })
        if (state.logs.length > maxLogs) state.logs.splice(0, state.logs.length - maxLogs)
      }
    }
    const fail = (status: number, message: string, logIt = true) =>
      send(status, { errors: { code: status, message }, request_id: requestId }, logIt)

    if (options.latencyMs) await sleep(options.latencyMs)

    const auth = headers.authorization ?? ''
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : ''
    if (token !== keys.full && token !== keys.readOnly) return fail(401, 'Unauthorized: the API key is missing or invalid.', false)

    const fault = takeFault(match?.route.name)
    if (fault?.latencyMs) await sleep(fault.latencyMs)
    if (fault?.hang) return // the socket stays open until close() destroys it
    if (fault?.reset) {
      record.status = -1
      req.socket.destroy()
      return
    }
    if (fault?.status) {
      const messages = { 500: 'Internal Server Error', 503: 'Service Unavailable', 504: 'Gateway Time-out' }
      return fail(fault.status, messages[fault.status])
    }
    if (fault?.malformed) {
      record.status = 200
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"results": [ this is not json')
      return
    }

    if (!match) return fail(404, `No such operation: ${method} ${url.pathname}`)
    const { route, values } = match
    if (token === keys.readOnly && method !== 'GET') return fail(403, 'Forbidden: this API key is read-only.')
    if (rawBody && body === undefined) return fail(400, 'The request body is not valid JSON.')

    // Gather parameters from where the table says each one goes.
    const raw: Record<string, unknown> = {}
    const bodyObj = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
    const shape = Object.keys((route.def.params as unknown as { shape: Record<string, unknown> }).shape)
    for (const name of shape) {
      const where = paramLocation(route.def, name)
      if (where === 'path') raw[name] = name === 'kind' ? kindByWord.get(values[name] ?? '') : values[name]
      else if (where === 'query') {
        const v = query[name]
        if (v !== undefined) raw[name] = name === 'limit' || name === 'page' ? (/^\d+$/.test(v) ? Number(v) : v) : v
      } else if (name in bodyObj) raw[name] = bodyObj[name]
    }
    const parsed = route.def.params.safeParse(raw)
    if (!parsed.success) {
      const msg = parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')
      return fail(400, `Invalid parameter. ${msg}`)
    }
    try {
      const ctx = { p: parsed.data, state, now: new Date(), paging } as HandlerCtx<EndpointName>
      const handler = handlers[route.name] as (c: HandlerCtx<EndpointName>) => ReturnType<(typeof handlers)[EndpointName]>
      const out = handler(ctx)
      const envelope: Record<string, unknown> = { results: out.results }
      if (out.paging) envelope.paging = out.paging
      envelope.request_id = requestId
      // The live service echoes the call; clients must ignore members they do not know.
      envelope.request = { path: url.pathname, method, params: { ...query, ...bodyObj } }
      send(200, envelope, true)
      if (method !== 'GET') save()
    } catch (err) {
      if (err instanceof SandboxHttpError) return fail(err.status, err.message)
      return fail(500, 'Internal Server Error')
    }
  }

  const sockets = new Set<Socket>()
  const load = {
    inFlight: 0,
    maxInFlight: 0,
    reset() {
      load.maxInFlight = load.inFlight
    },
  }
  const server = createServer((req, res) => {
    load.inFlight++
    load.maxInFlight = Math.max(load.maxInFlight, load.inFlight)
    let done = false
    const finish = () => {
      if (!done) load.inFlight--
      done = true
    }
    res.on('close', finish)
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const addr = server.address() as AddressInfo
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address

  return {
    url: `http://${host}:${addr.port}/v1`,
    keys,
    serverPaths,
    get state() {
      return state
    },
    set state(s: SandboxState) {
      state = s
    },
    received,
    load,
    faults: {
      inject: (route, spec) => faults.set(route, { ...spec }),
      clear: () => faults.clear(),
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function loadState(file: string | undefined): SandboxState | undefined {
  if (!file || !existsSync(file)) return undefined
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (typeof data !== 'object' || data === null || (data as { version?: unknown }).version !== 1) {
    throw new Error(`${file} is not a sandbox state file (version 1).`)
  }
  return data as SandboxState
}

export { seedState } from './state'
export type { SandboxState } from './state'
