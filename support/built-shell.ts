/**
 * Starts the BUILT main bundle (out/main/index.js) in a child Node process against the
 * electron double (support/electron-double), and talks to it. What the child answers is
 * checked with schemas here, once.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { z } from 'zod'

const BUILT_MAIN = resolve('out/main/index.js')
/** The unprivileged user a child runs as when it must not write where root could. */
const NOBODY = 65534
export const BUILT_PRELOAD = resolve('out/preload/index.cjs')

export function assertBuilt(): void {
  if (!existsSync(BUILT_MAIN) || !existsSync(BUILT_PRELOAD))
    throw new Error('No built bundle in out/: run `npm run build` first (npm test does).')
}

const answer = z.object({
  id: z.number(),
  ok: z.boolean(),
  value: z.unknown().optional(),
  error: z.string().optional(),
})

const menuItem: z.ZodType<{
  role?: string | undefined
  type?: string | undefined
  submenu?: { role?: string | undefined }[] | undefined
}> = z.lazy(() =>
  z.object({ role: z.string().optional(), type: z.string().optional(), submenu: z.array(menuItem).optional() }),
)
export const shellState = z.object({
  calls: z.array(z.string()),
  quit: z.boolean(),
  sandboxEnabled: z.boolean(),
  /** Command-line switches main appended, by name (what Electron starts the renderers with). */
  switches: z.record(z.string(), z.string()),
  privilegedSchemes: z.array(z.object({ scheme: z.string(), privileges: z.record(z.string(), z.boolean()) })),
  protocols: z.array(z.string()),
  ipcChannels: z.array(z.string()),
  windows: z.array(
    z.object({
      options: z.object({ webPreferences: z.record(z.string(), z.unknown()) }).passthrough(),
      url: z.string().optional(),
    }),
  ),
  menu: z.array(menuItem).nullable(),
  openedExternal: z.array(z.string()),
  openedPaths: z.array(z.string()),
  clipboard: z.array(z.string()),
  listeners: z.object({ webContentsCreated: z.number(), secondInstance: z.number() }),
  notifications: z.array(z.object({ title: z.string(), body: z.string(), shown: z.boolean() })),
  focused: z.number(),
  /** What the bundle sent to the window's page, by channel. */
  sent: z.array(z.object({ channel: z.string(), args: z.array(z.unknown()) })),
  /** When app ready fired and the window's load events came (performance.now() of the child). */
  timeline: z.array(z.object({ event: z.string(), at: z.number() })),
})
export type ShellState = z.infer<typeof shellState>

const protocolAnswer = z.object({
  registered: z.boolean(),
  status: z.number().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
})
const invokeAnswer = z.object({ registered: z.boolean(), result: z.unknown().optional() })
const resultSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z
      .object({
        kind: z.string(),
        code: z.string(),
        params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      })
      .passthrough(),
  }),
])
/** An IPC Result as the child sent it. */
export type ShellResult = z.infer<typeof resultSchema>

export interface BuiltShell {
  userDataDir: string
  /** Everything the child printed. */
  output(): string
  ready(): Promise<boolean>
  state(): Promise<ShellState>
  /** Main's memory (bytes), after a full collection where the host was started with --expose-gc. */
  memory(): Promise<{ rss: number; heapUsed: number; collected: boolean }>
  protocol(url: string): Promise<z.infer<typeof protocolAnswer>>
  /** A call through the handler the bundle registered for this Electron channel (undefined: none registered). */
  invoke(channel: string, payload: unknown, senderUrl?: string): Promise<ShellResult | undefined>
  guard(
    event: 'will-navigate' | 'will-redirect' | 'will-attach-webview' | 'open',
    url?: string,
  ): Promise<{ prevented?: boolean; answer?: unknown }>
  permission(permission: string): Promise<{ granted?: boolean; check?: boolean }>
  beforeRequest(url: string): Promise<{ cancel?: boolean }>
  /** The user clicks the notification the bundle showed at this index; false when there is none. */
  clickNotification(index: number): Promise<boolean>
  /** The user clicks the window's close button: whether the window closed (main may keep it open to ask first). */
  closeWindow(): Promise<boolean>
  /** A reload of the window whose page's beforeunload cancels it or not: whether it reloaded. */
  reloadWindow(beforeUnloadCancels: boolean): Promise<boolean>
  quit(): Promise<void>
  exited(): Promise<number | null>
}

export interface BuiltShellOptions {
  /** The main bundle to start (a packed app's, laid out on disk); by default out/main/index.js. */
  main?: string
  /** Lets memory() collect garbage before it measures (the bench). */
  exposeGc?: boolean
  /** How long a command waits for the child's answer (20 s; 200,000 stored domains on a busy machine need more). */
  answerTimeoutMs?: number
  userDataDir?: string
  lock?: 'granted' | 'denied'
  packaged?: boolean
  /** 'fail': the window's page cannot be loaded (loadURL rejects, as Electron's does). */
  load?: 'ok' | 'fail'
  /** 'never': the window never emits ready-to-show (Electron does not promise that it will). */
  paint?: 'ok' | 'never'
  /** 'fail': the clipboard cannot be written (clipboard.writeText rejects, as Electron's may). */
  clipboard?: 'ok' | 'fail'
  /**
   * The data folder can be read but not written: made read-only, and the child run as an
   * unprivileged user when the tests run as root (root writes to anything).
   */
  readOnlyDataFolder?: boolean
}

export async function startBuiltShell(opts: BuiltShellOptions = {}): Promise<BuiltShell> {
  if (!opts.main) assertBuilt()
  const userDataDir = opts.userDataDir ?? mkdtempSync(join(tmpdir(), 'built-shell-'))
  if (opts.readOnlyDataFolder) chmodSync(userDataDir, 0o555)
  const asUser = opts.readOnlyDataFolder && process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {}
  const child: ChildProcess = fork(resolve('support/electron-double/host.mjs'), [opts.main ?? BUILT_MAIN], {
    ...asUser,
    // Plain Node, as Electron runs the built bundle: never the parent's own flags (the tsx loader
    // the bench and the tests run under, which handles every file main imports and held 25-35 MB
    // of main's resident memory, more the larger the bundle).
    execArgv: opts.exposeGc ? ['--expose-gc'] : [],
    env: {
      ...process.env,
      ELECTRON_DOUBLE_USER_DATA: userDataDir,
      ELECTRON_DOUBLE_LOCK: opts.lock ?? 'granted',
      ELECTRON_DOUBLE_PACKAGED: opts.packaged ? '1' : '0',
      ELECTRON_DOUBLE_LOAD: opts.load ?? 'ok',
      ELECTRON_DOUBLE_PAINT: opts.paint ?? 'ok',
      ELECTRON_DOUBLE_CLIPBOARD: opts.clipboard ?? 'ok',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  const pending = new Map<number, (v: z.infer<typeof answer>) => void>()
  let nextId = 1
  const loaded = new Promise<void>((resolveLoaded, reject) => {
    child.on('message', (raw) => {
      const m = answer.parse(raw)
      if (m.id === 0) return resolveLoaded()
      pending.get(m.id)?.(m)
      pending.delete(m.id)
    })
    void exit.then((code) => reject(new Error(`The built main bundle exited (${code}) before it loaded:\n${out}`)))
  })
  // A second instance quits before anything loads; the load message still comes first.
  await loaded
  const send = (cmd: string, extra: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((res, rej) => {
      const id = nextId++
      const waitMs = opts.answerTimeoutMs ?? 20_000
      const timer = setTimeout(() => rej(new Error(`No answer to ${cmd} within ${waitMs / 1000} s:\n${out}`)), waitMs)
      // A child that exits answers nothing more: the command fails at once.
      void exit.then((code) => {
        clearTimeout(timer)
        rej(new Error(`The built main bundle exited (${code}) before answering ${cmd}`))
      })
      pending.set(id, (m) => {
        clearTimeout(timer)
        if (m.ok) res(m.value)
        else rej(new Error(m.error))
      })
      child.send({ id, cmd, ...extra })
    })
  return {
    userDataDir,
    output: () => out,
    ready: async () => z.object({ loaded: z.boolean() }).parse(await send('ready')).loaded,
    state: async () => shellState.parse(await send('state')),
    memory: async () =>
      z.object({ rss: z.number(), heapUsed: z.number(), collected: z.boolean() }).parse(await send('memory')),
    protocol: async (url) => protocolAnswer.parse(await send('protocol', { url })),
    invoke: async (channel, payload, senderUrl = 'app://app/index.html') => {
      const a = invokeAnswer.parse(await send('invoke', { channel, payload, senderUrl }))
      return a.registered ? resultSchema.parse(a.result) : undefined
    },
    guard: async (event, url) =>
      z
        .object({ prevented: z.boolean().optional(), answer: z.unknown().optional() })
        .parse(await send('guard', { event, url })),
    permission: async (permission) =>
      z
        .object({ granted: z.boolean().optional(), check: z.boolean().optional() })
        .parse(await send('permission', { permission })),
    beforeRequest: async (url) =>
      z.object({ cancel: z.boolean().optional() }).parse(await send('beforeRequest', { url })),
    closeWindow: async () =>
      z
        .object({ closed: z.boolean() })
        .passthrough()
        .parse(await send('closeWindow')).closed,
    reloadWindow: async (beforeUnloadCancels) =>
      z.object({ reloaded: z.boolean() }).parse(await send('reloadWindow', { beforeUnloadCancels })).reloaded,
    clickNotification: async (index) =>
      z.object({ clicked: z.boolean() }).parse(await send('clickNotification', { index })).clicked,
    quit: async () => {
      if (child.exitCode !== null) return
      await send('quit').catch(() => undefined)
      await exit
    },
    exited: () => exit,
  }
}
