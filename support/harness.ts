/**
 * The end-to-end harness (see shared ARCHITECTURE.md): the built renderer served on
 * loopback to Chromium, with window.api bridged to the real main-process services
 * (router, account store in a temp folder, keychain, demo sandbox).
 */
import { createServer, type Server } from 'node:http'
import { listeningPort } from './listening-port'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { extname, join, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import type { Page } from '@playwright/test'
import { startAppServices, type AppServices, type AppServicesOptions } from '../src/main/app/app-services'
import type { IpcRouter } from '../src/main/ipc/router'
import { sandboxDemo } from '../src/main/accounts/demo'
import { KeytarSecretStore, loadKeytar, SessionSecretStore, type SecretStore } from '../src/main/accounts/secret-store'
import { MIME_TYPES } from '../src/main/shell/app-protocol'
import { CONTENT_SECURITY_POLICY } from '../src/main/shell/security'
import type { Sandbox, SandboxOptions } from '../src/sandbox'
import { createAppLog } from '../src/main/base/app-log'
import { Redactor } from '../src/main/base/redaction'
import { headlessDesktop, type HeadlessDesktop } from '../src/main/base/desktop'
import type { ChannelName, Progress } from '@shared/ipc/contract'
import type { JobView } from '@shared/jobs'
import type { ReminderTarget } from '@shared/portfolio/reminders'

const RENDERER_DIR = resolve('out/renderer')
/**
 * The built store worker, as the app starts it: the suite runs after the build, and the
 * sources' worker would compile the store's TypeScript again in every test's new thread.
 */
const STORE_WORKER = pathToFileURL(resolve('out/main/store-worker.js'))
/** Every harness logs under here, with the keys its app learned beside the log (tests/e2e/no-keys-in-logs.teardown.ts reads both). */
export const E2E_LOG_ROOT = resolve('test-results/e2e-logs')

/** The app's redaction, also noting every key it is told of, for the check after the run. */
class RecordingRedactor extends Redactor {
  readonly seen = new Set<string>()
  override add(secret: string): void {
    this.seen.add(secret)
    super.add(secret)
  }
}

/** A call of the window to main, as the bridge carried it: tests wait for one instead of for a while. */
export interface WindowCall {
  channel: ChannelName
  payload: unknown
  /** False until main has answered. */
  answered: boolean
  /** Main's answer (a Result), once answered. */
  answer?: unknown
  /** When the window called, and when main answered (Date.now()): where a slow test's time went. */
  calledAt: number
  answeredAt?: number
}

export interface Harness {
  url: string
  /** Every call the window has made through the bridge, oldest first. */
  windowCalls: WindowCall[]
  /** The app's services (throws when the app could not start: see `router`). */
  services: AppServices
  /** What the window talks to: the services' router, or the start-up failure's. */
  router: IpcRouter
  /** How many times the user confirmed quitting while writes ran. */
  readonly quitsConfirmed: number
  /** The demo account's sandbox (started on first use). */
  demo(): Promise<Sandbox>
  keychain: SecretStore
  userDataDir: string
  /** The desktop the app was given: what it put on the clipboard, the notifications it showed (a test clicks them). */
  desktop: HeadlessDesktop
  /** The app's log file. */
  logFile: string
  close(): Promise<void>
}

/** Serves out/renderer with the app's CSP header, as the app:// protocol does. */
function serveRenderer(): Promise<Server> {
  const root = RENDERER_DIR
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = resolve(root, `.${path === '/' ? '/index.html' : path}`)
    const mime = MIME_TYPES[extname(file)]
    if (!file.startsWith(root + sep) || !mime) return void res.writeHead(404).end()
    try {
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': mime, 'content-security-policy': CONTENT_SECURITY_POLICY })
      res.end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)))
}

export interface HarnessOptions {
  keychain?: SecretStore
  userDataDir?: string
  /** Options of the demo account's sandbox (seed sizes, latency). */
  demo?: SandboxOptions
  /** When the service's log is read after an unknown outcome. */
  logCheckDelaysMs?: number[]
  /** Where the app's log goes (by default a folder of its own under E2E_LOG_ROOT). */
  logDir?: string
  /** Main's clock for expiry reminders (by default the system's). */
  now?: () => Date
  /** The store worker's restarts and heap limits (a test runs one out of memory). */
  storeWorker?: AppServicesOptions['storeWorker']
  /**
   * Whether the accounts' keys stay in the keychain when the harness closes: `npm run ui` keeps
   * them (they are the user's, as the app keeps its own); a test's keys are removed with it.
   */
  keepKeys?: boolean
}

/**
 * Where the app's DNS-asking rules ask when a test names no resolver: a loopback port nobody
 * listens on, so each question fails at once and is said as "could not ask". Tests talk only to
 * this machine; the machine's own resolver would reach the world (or not, depending on the machine).
 */
const NO_RESOLVER = '127.0.0.1:9'

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  process.env.HOSTING_ADMIN_RESOLVERS ??= NO_RESOLVER
  const server = await serveRenderer()
  const origin = `http://127.0.0.1:${listeningPort(server)}`
  // A folder made here is removed at close (thousands of runs left 13 GB in the temporary
  // folder); one given by the caller is the caller's (a test that starts the app twice on it).
  const ownDataDir = opts.userDataDir === undefined
  const userDataDir = opts.userDataDir ?? mkdtempSync(join(tmpdir(), 'e2e-userdata-'))
  const keychain =
    opts.keychain ??
    (process.env.DBUS_SESSION_BUS_ADDRESS
      ? new KeytarSecretStore(await loadKeytar(), `hosting-admin-e2e-${randomUUID()}`)
      : new SessionSecretStore())
  // Tests read what the demo sandbox received; the app's own demo records nothing.
  const demo = sandboxDemo({ maxRecorded: 50_000, maxLogEntries: 20_000, ...opts.demo })
  let quits = 0
  const redactor = new RecordingRedactor()
  const logDir = opts.logDir ?? join(E2E_LOG_ROOT, randomUUID())
  const log = createAppLog({ dir: logDir, redactor })
  const desktop = headlessDesktop()
  const started = await startAppServices({
    log,
    desktop,
    userDataDir,
    allowedOrigins: [origin],
    keychain: async () => keychain,
    demo,
    storeWorkerUrl: STORE_WORKER,
    onQuitConfirmed: () => quits++,
    ...(opts.logCheckDelaysMs ? { logCheckDelaysMs: opts.logCheckDelaysMs } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.storeWorker ? { storeWorker: opts.storeWorker } : {}),
  })
  const services = () => {
    if (!started.services) throw new Error(`The app did not start: ${JSON.stringify(started.problem)}`)
    return started.services
  }
  return {
    url: `${origin}/index.html`,
    windowCalls: [],
    get services() {
      return services()
    },
    router: started.router,
    logFile: log.file,
    get quitsConfirmed() {
      return quits
    },
    keychain,
    userDataDir,
    desktop,
    async demo() {
      await demo.start()
      const sb = demo.sandbox()
      if (!sb) throw new Error('the demo sandbox did not start')
      return sb
    },
    async close() {
      if (started.services) {
        const { accounts } = await started.services.accounts.list()
        if (!opts.keepKeys) for (const a of accounts) if (!a.demo) await keychain.delete(a.id).catch(() => undefined)
        await started.services.close()
      }
      const sb = demo.sandbox()
      for (const k of sb ? [sb.keys.full, sb.keys.readOnly] : []) redactor.seen.add(k)
      // Test keys only, for the check after the run; never beside a log given by the caller (npm run ui holds real keys).
      if (!opts.logDir) {
        mkdirSync(logDir, { recursive: true })
        writeFileSync(join(logDir, 'keys.json'), JSON.stringify([...redactor.seen]))
      }
      // Chromium keeps idle keep-alive connections open; close() alone would wait for them.
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      if (ownDataDir) rmSync(userDataDir, { recursive: true, force: true })
    },
  }
}

let bridgeScript: Promise<string> | undefined
function bundleBridge(): Promise<string> {
  bridgeScript ??= build({
    entryPoints: [resolve('support/bridge-entry.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
  }).then((r) => r.outputFiles[0]!.text)
  return bridgeScript
}

export interface BridgeOptions {
  /**
   * Each answer handed to the app in a task of its own, after the one that carried it (a bench's window):
   * the DevTools protocol's carriage of the answer's text, which an Electron window never has, is then a
   * task apart from the app's own work on the answer (support/bridge-entry.ts), and a bench can tell them apart.
   */
  answerInOwnTask?: boolean
}

/**
 * Installs window.api in the page, bridged to the harness's real IPC router. `hold`: a test's
 * gate before a call reaches main (what the window shows while main has not answered yet).
 */
export async function installBridge(
  page: Page,
  harness: Harness,
  hold?: (channel: ChannelName) => Promise<void> | undefined,
  options: BridgeOptions = {},
): Promise<void> {
  // The answer crosses as JSON text, as fast as Electron's IPC carries it: a binding's own
  // serialisation of 10,000 items took a second, which the app would never pay.
  await page.exposeBinding('__haInvoke', async (source, channel: ChannelName, payload: unknown) => {
    const call: WindowCall = { channel, payload, answered: false, calledAt: Date.now() }
    harness.windowCalls.push(call)
    await hold?.(channel)
    const answer = await harness.router.dispatch(channel, payload, {
      url: source.frame.url(),
      key: 'page',
      sendProgress: (p: Progress) => {
        page
          .evaluate((pr) => {
            // In the page: the hook the bridge installs (support/bridge-entry.ts), when it is there.
            const hook: unknown = Reflect.get(globalThis, '__haProgress')
            if (typeof hook === 'function') Reflect.apply(hook, undefined, [pr])
          }, p)
          .catch(() => undefined)
      },
      sendJob: (job: JobView) => {
        if (page.isClosed()) return false
        page
          .evaluate((j) => {
            // In the page: the hook the bridge installs (support/bridge-entry.ts), when it is there.
            const hook: unknown = Reflect.get(globalThis, '__haJob')
            if (typeof hook === 'function') Reflect.apply(hook, undefined, [j])
          }, job)
          .catch(() => undefined)
        return true
      },
      // A clicked notification: the page is told as the preload would tell it (bridge-entry.ts).
      sendReminderOpen: (target: ReminderTarget) => {
        if (page.isClosed()) return false
        page
          .evaluate((t) => {
            // In the page: the hook the bridge installs (support/bridge-entry.ts), when it is there.
            const hook: unknown = Reflect.get(globalThis, '__haReminderOpen')
            if (typeof hook === 'function') Reflect.apply(hook, undefined, [t])
          }, target)
          .catch(() => undefined)
        return true
      },
    })
    Object.assign(call, { answered: true, answer, answeredAt: Date.now() })
    return JSON.stringify(answer)
  })
  const flags = options.answerInOwnTask ? 'window.__haAnswerInOwnTask = true;\n' : ''
  await page.addInitScript({ content: flags + (await bundleBridge()) })
}
