/**
 * The end-to-end harness (see shared ARCHITECTURE.md): the built renderer served on
 * loopback to Chromium, with window.api bridged to the real main-process services
 * (router, account store in a temp folder, keychain, demo sandbox).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { extname, join, resolve, sep } from 'node:path'
import { build } from 'esbuild'
import type { Page } from '@playwright/test'
import { createAppServices, type AppServices } from '../../src/main/app-services'
import { sandboxDemo } from '../../src/main/accounts/demo'
import { KeytarSecretStore, loadKeytar, SessionSecretStore, type SecretStore } from '../../src/main/accounts/secret-store'
import { MIME_TYPES } from '../../src/main/shell/app-protocol'
import { CONTENT_SECURITY_POLICY } from '../../src/main/shell/security'
import type { Sandbox, SandboxOptions } from '../../src/sandbox'
import type { ChannelName, Progress } from '../../src/shared/ipc/contract'
import type { JobView } from '../../src/shared/jobs'

const RENDERER_DIR = resolve('out/renderer')

export interface Harness {
  url: string
  services: AppServices
  /** How many times the user confirmed quitting while writes ran. */
  readonly quitsConfirmed: number
  /** The demo account's sandbox (started on first use). */
  demo(): Promise<Sandbox>
  keychain: SecretStore
  userDataDir: string
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
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const server = await serveRenderer()
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const userDataDir = opts.userDataDir ?? mkdtempSync(join(tmpdir(), 'e2e-userdata-'))
  const keychain =
    opts.keychain ??
    (process.env.DBUS_SESSION_BUS_ADDRESS ? new KeytarSecretStore(await loadKeytar(), `hosting-admin-e2e-${randomUUID()}`) : new SessionSecretStore())
  const demo = sandboxDemo(opts.demo)
  let quits = 0
  const services = await createAppServices({
    userDataDir,
    allowedOrigins: [origin],
    keychain: async () => keychain,
    demo,
    onQuitConfirmed: () => quits++,
    ...(opts.logCheckDelaysMs ? { logCheckDelaysMs: opts.logCheckDelaysMs } : {}),
  })
  return {
    url: `${origin}/index.html`,
    services,
    get quitsConfirmed() {
      return quits
    },
    keychain,
    userDataDir,
    async demo() {
      await demo.start()
      return demo.sandbox() as Sandbox
    },
    async close() {
      const { accounts } = await services.accounts.list()
      for (const a of accounts) if (!a.demo) await keychain.delete(a.id).catch(() => undefined)
      await services.close()
      // Chromium keeps idle keep-alive connections open; close() alone would wait for them.
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

let bridgeScript: Promise<string> | undefined
function bundleBridge(): Promise<string> {
  bridgeScript ??= build({
    entryPoints: [resolve('tests/e2e/bridge-entry.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
  }).then((r) => r.outputFiles[0]!.text)
  return bridgeScript
}

/** Installs window.api in the page, bridged to the harness's real IPC router. */
export async function installBridge(page: Page, harness: Harness): Promise<void> {
  await page.exposeBinding('__haInvoke', (source, channel: ChannelName, payload: unknown) =>
    harness.services.router.dispatch(channel, payload, {
      url: source.frame.url(),
      key: 'page',
      sendProgress: (p: Progress) => {
        page.evaluate((pr) => (window as unknown as { __haProgress?: (x: unknown) => void }).__haProgress?.(pr), p).catch(() => undefined)
      },
      sendJob: (job: JobView) => {
        if (page.isClosed()) return false
        page.evaluate((j) => (window as unknown as { __haJob?: (x: unknown) => void }).__haJob?.(j), job).catch(() => undefined)
        return true
      },
    }),
  )
  await page.addInitScript({ content: await bundleBridge() })
}
