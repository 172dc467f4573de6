/**
 * A local, stateful stand-in for the whole API, over real HTTP on loopback.
 * Used by the built-in demo account, every test and the benchmarks.
 *
 * This module is the sandbox's public face: its options, what a running sandbox offers,
 * and starting and stopping the server. How one request is served is in server.ts; the
 * endpoints' handlers are in areas/, gathered by handlers.ts.
 */
import { createServer } from 'node:http'
import type { Socket } from 'node:net'
import { randomBytes } from 'node:crypto'
import { SERVER_KINDS, SERVER_KIND_PLACEHOLDERS, type ServerKind } from '@shared/service/constants'
import { createFaults, type FaultRegistry } from './faults'
import { fromKeys } from './from-keys'
import type { PagingOptions } from './handler-types'
import { loadState, saveState } from './persistence'
import { createLoadCounters, createRecorder, trackInFlight, type LoadCounters, type RecordedRequest } from './recording'
import { buildRoutes } from './routes'
import { seedState, type SeedOptions } from './seed'
import { createRateLimiter, defaultBehaviour, type ServiceBehaviour } from './behaviour'
export type { RateLimit, ServiceBehaviour } from './behaviour'
export { LIVE_RATE_LIMIT, scaledRateLimit } from './behaviour'
import { requestIds, serveRequest, type ServeContext } from './server'
import type { SandboxState } from './state'

export type { FaultSpec } from './faults'
export type { RecordedRequest } from './recording'
export type { SandboxState } from './state'

// The add-account form suggests the same words, so an account added with its suggestions
// works against a sandbox started with the defaults.
export const DEFAULT_SERVER_PATHS: Record<ServerKind, string> = fromKeys(
  SERVER_KINDS,
  (k) => SERVER_KIND_PLACEHOLDERS[k].path,
)
export const DEFAULT_SERVER_LABELS: Record<ServerKind, string> = fromKeys(
  SERVER_KINDS,
  (k) => SERVER_KIND_PLACEHOLDERS[k].label,
)

export interface SandboxOptions extends SeedOptions {
  host?: string
  port?: number
  serverPaths?: Partial<Record<ServerKind, string>>
  /**
   * The account's API keys: a full one, a read-only one, and `members`, more full keys of the same
   * account (a team often gives each member a token of their own; the account, its data and its
   * request log are one, whichever key reaches them).
   */
  keys?: { full?: string; readOnly?: string; members?: readonly string[] }
  /** Added to every request, to stand in for a real network (benchmarks). */
  latencyMs?: number
  paging?: Partial<PagingOptions>
  /** How the stand-in differs from the spec as the live service does (product words, storage, rate limit). */
  service?: Partial<ServiceBehaviour>
  /** Persist the state to this JSON file after every change, and load it at start. */
  stateFile?: string
  /** Keep at most this many log entries (oldest dropped). */
  maxLogEntries?: number
  /** Keep at most this many recorded requests for tests to inspect (0: record nothing). */
  maxRecorded?: number
  /** Refuse request bodies larger than this (default 1 MB). */
  maxBodyBytes?: number
  /** Start from this state instead of a seed (the demo keeps its data across a stop). */
  initialState?: SandboxState
}

export interface Sandbox {
  /** Base URL, ending in /v1. */
  url: string
  keys: { full: string; readOnly: string; members: readonly string[] }
  serverPaths: Record<ServerKind, string>
  /** The live-service behaviours, changeable while the sandbox runs. */
  service: ServiceBehaviour
  /** The live state; tests may change it directly to stand in for someone else's change. */
  state: SandboxState
  /** Every request received, oldest first. */
  received: RecordedRequest[]
  faults: FaultRegistry
  /** Requests being served now, and the most at once since the last reset. */
  load: LoadCounters
  close(): Promise<void>
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const serverPaths: Record<ServerKind, string> = { ...DEFAULT_SERVER_PATHS, ...options.serverPaths }
  const keys = {
    full: options.keys?.full ?? `sbx_full_${randomBytes(16).toString('hex')}`,
    readOnly: options.keys?.readOnly ?? `sbx_ro_${randomBytes(16).toString('hex')}`,
    members: [...(options.keys?.members ?? [])],
  }
  let state = options.initialState ?? loadState(options.stateFile) ?? seedState(options)
  const recorder = createRecorder(options.maxRecorded ?? 50_000)
  const faults = createFaults()
  const load = createLoadCounters()

  const service: ServiceBehaviour = { ...defaultBehaviour(), ...options.service }
  const allow = createRateLimiter()
  const ctx: ServeContext = {
    service,
    allow: (key) => allow(key, service.rateLimit),
    routes: buildRoutes(serverPaths),
    kindByWord: new Map(SERVER_KINDS.map((k) => [serverPaths[k], k])),
    keys,
    // Recorded: GET /domains without a limit answers with "limit":10.
    paging: { pagingMax: 'total', defaultPageSize: 10, maxPageSize: 1000, ...options.paging },
    latencyMs: options.latencyMs,
    maxLogEntries: options.maxLogEntries ?? 20_000,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    newRequestId: requestIds(),
    state: () => state,
    save: () => saveState(options.stateFile, state),
    record: recorder.add,
    takeFault: faults.take,
  }

  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    trackInFlight(load, res)
    serveRequest(ctx, req, res).catch(() => {
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
  const addr = server.address()
  // Listening on a host and port gives an address record (a string only for a pipe or socket).
  if (addr === null || typeof addr === 'string') throw new Error('the sandbox is not listening on a TCP port')
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address

  return {
    url: `http://${host}:${addr.port}/v1`,
    keys,
    serverPaths,
    service,
    get state() {
      return state
    },
    set state(s: SandboxState) {
      state = s
    },
    received: recorder.received,
    load,
    faults: faults.registry,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
