/**
 * A door no one else can open (issue 35, point 3): the app's door for the command is a socket in
 * a directory only the user can enter, advertised only once the app listens there; the command
 * checks it before its token leaves; and the window's jobs cross it without their secrets.
 * Real services, real sockets, the built command as a process, and for the other local user a
 * real second account (made with useradd when the test runs as root) whose processes
 * pre-create the places an attacker would.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { currentHolder } from '../../src/main/base/data-lock'
import { chooseDoorPlace } from '../../src/main/door/door-path'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { JobView } from '@shared/jobs'
import type { WriteEndpointName } from '@shared/endpoints/table'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { startLockChild, type LockChild } from '../helpers/child-processes'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'
import { z } from 'zod'
import { fromAppSchema } from '@shared/ipc/door-messages'

const AUTHCODE = 'DOOR-PLANTED-AUTHCODE-5d1e'
const DDNS_PASSWORD = 'door-planted-ddns-password-2b7c'
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)

// The runtime directory is the test's to set: the app reads it at start.
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR
beforeAll(() => {
  delete process.env.XDG_RUNTIME_DIR
})
afterAll(() => {
  if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR
  else process.env.XDG_RUNTIME_DIR = savedRuntimeDir
})

/** A data folder whose `cli.sock` path would be over the Unix socket limit (about 100 bytes). */
const longFolder = () => {
  const dir = join(
    mkdtempSync(join(tmpdir(), 'door-long-')),
    'a-data-folder-with-a-long-name-'.repeat(2),
    'and-deeper-still-'.repeat(2),
  )
  mkdirSync(dir, { recursive: true })
  return dir
}
/** The name the door had before: computable by anyone who knows the folder's path. */
const oldStyleSocket = (dataDir: string) =>
  join(tmpdir(), `hosting-admin-${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}.sock`)

/** Sends lines to a door and collects every line it answers until `until` says enough. */
function converse(
  socketPath: string,
  lines: object[],
  until: (received: string[]) => boolean,
  more?: (received: string[]) => object[],
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath)
    const received: string[] = []
    let buffered = ''
    let sentMore = false
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the door answered ${received.length} lines, not what was waited for`))
    }, 30_000)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffered += chunk
      let at = buffered.indexOf('\n')
      while (at >= 0) {
        received.push(buffered.slice(0, at))
        buffered = buffered.slice(at + 1)
        at = buffered.indexOf('\n')
      }
      const extra = !sentMore && more?.(received)
      if (extra && extra.length) {
        sentMore = true
        for (const l of extra) socket.write(`${JSON.stringify(l)}\n`)
      }
      if (until(received)) {
        clearTimeout(timer)
        socket.destroy()
        resolve(received)
      }
    })
    socket.on('error', reject)
    for (const l of lines) socket.write(`${JSON.stringify(l)}\n`)
  })
}

describe('the door’s place', () => {
  it('with a data folder path over the socket limit: a directory of the user’s alone, never the name in /tmp anyone can compute; the command goes through it', async () => {
    const dataDir = longFolder()
    expect(Buffer.byteLength(join(dataDir, 'cli.sock'))).toBeGreaterThan(100)
    const services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [APP],
      keychain: async () => new SessionSecretStore(),
      storeWorkerUrl: WORKER,
    })
    let socket = ''
    try {
      const holder = await currentHolder(dataDir)
      expect(holder?.socket).toBeDefined()
      socket = holder!.socket!
      expect(socket).not.toBe(oldStyleSocket(dataDir))
      const dir = lstatSync(dirname(socket))
      expect(dir.isDirectory() && !dir.isSymbolicLink()).toBe(true)
      expect(dir.uid).toBe(process.getuid!())
      expect(dir.mode & 0o777).toBe(0o700)
      expect(lstatSync(socket).mode & 0o777).toBe(0o600)
      if (existsSync(CLI_BIN)) {
        const r = await runCli(['accounts', '--json'], { dataDir })
        expect(r).toMatchObject({ code: 0 })
        expect(r.err).toContain('through it')
      }
    } finally {
      await services.close()
    }
    // Closed: the directory made for this run goes with the door.
    expect(existsSync(dirname(socket))).toBe(false)
  })

  it('is advertised only once the app listens: no door in the holder file when none could be opened', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'door-none-'))
    // No place for it: the runtime directory is refused (open to others), the data folder's `run`
    // is a file, and the temporary folder's path is too long for any socket.
    const tooLong = join(mkdtempSync(join(tmpdir(), 'door-tmp-')), 'x'.repeat(100))
    mkdirSync(tooLong)
    writeFileSync(join(dataDir, 'run'), '')
    const placed = await chooseDoorPlace(dataDir, { runtimeDir: '/tmp', tmp: tooLong })
    expect(placed).toMatchObject({
      ok: false,
      refused: [
        { dir: '/tmp', reason: 'openToOthers' },
        { dir: join(dataDir, 'run'), reason: 'notDirectory' },
        { reason: 'tooLong' },
      ],
    })
    process.env.XDG_RUNTIME_DIR = '/tmp'
    process.env.TMPDIR = tooLong
    let services: AppServices | undefined
    try {
      services = await createAppServices({
        userDataDir: dataDir,
        allowedOrigins: [APP],
        keychain: async () => new SessionSecretStore(),
        storeWorkerUrl: WORKER,
      })
      const holder = await currentHolder(dataDir)
      expect(holder).toMatchObject({ who: 'app', pid: process.pid })
      expect(holder?.socket).toBeUndefined()
      expect(holder?.token).toBeUndefined()
      expect(JSON.parse(readFileSync(join(dataDir, 'in-use.lock'), 'utf8'))).not.toHaveProperty('socket')
    } finally {
      delete process.env.XDG_RUNTIME_DIR
      delete process.env.TMPDIR
      await services?.close()
    }
  })

  it('refuses a runtime directory or a door directory that is a link or open to others', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'door-refuse-'))
    const runtime = mkdtempSync(join(tmpdir(), 'runtime-'))
    // Open to others.
    chmodSync(runtime, 0o755)
    expect(await chooseDoorPlace(dataDir, { runtimeDir: runtime })).toMatchObject({
      ok: true,
      place: { socket: join(dataDir, 'run', 'cli.sock') },
      refused: [{ dir: runtime, reason: 'openToOthers' }],
    })
    chmodSync(runtime, 0o700)
    // Its door directory a link to somewhere else.
    symlinkSync(mkdtempSync(join(tmpdir(), 'elsewhere-')), join(runtime, 'hosting-admin'))
    expect(await chooseDoorPlace(dataDir, { runtimeDir: runtime })).toMatchObject({
      ok: true,
      place: { socket: join(dataDir, 'run', 'cli.sock') },
      refused: [{ dir: join(runtime, 'hosting-admin'), reason: 'symlink' }],
    })
    rmSync(join(runtime, 'hosting-admin'))
    const fine = await chooseDoorPlace(dataDir, { runtimeDir: runtime })
    expect(fine).toMatchObject({ ok: true, refused: [] })
    expect(fine.ok && dirname(fine.place.socket)).toBe(join(runtime, 'hosting-admin'))
    expect(lstatSync(join(runtime, 'hosting-admin')).mode & 0o777).toBe(0o700)
  })
})

describe('the window’s jobs through the door', () => {
  let sb: Sandbox
  let dataDir: string
  let services: AppServices
  let accountId: string
  const { ok } = routerCalls(() => services)
  const write = async (operation: WriteEndpointName, params: Record<string, unknown>): Promise<JobView> => {
    const { job, token } = await ok('jobs.prepare', { accountId, operation, items: [{ params }] })
    return ok('jobs.start', { jobId: job.id, ...(token ? { token } : {}) })
  }
  beforeAll(async () => {
    sb = await startSandbox({ domains: 6 })
    dataDir = mkdtempSync(join(tmpdir(), 'door-jobs-'))
    const keys = new SessionSecretStore()
    services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [APP],
      keychain: async () => keys,
      storeWorkerUrl: WORKER,
      logCheckDelaysMs: [60_000],
    })
    accountId = (
      await ok('accounts.create', { fields: profileFor(sb, 'Main', 1500), apiKey: sb.keys.full, storage: 'keychain' })
    ).id
  })
  afterAll(async () => {
    await services.close()
    await sb.close()
  })

  it('reach a door client without their transfer codes or dynamic DNS passwords, as they run and in the list', async () => {
    const { socket, token } = (await currentHolder(dataDir))!
    const domains = sb.state.domains.map((d) => d.domainname)
    const serviceCodes = sb.state.domains
      .map((d) => d.authcode)
      .filter((c): c is string => typeof c === 'string' && c.length > 0)
    let started: Promise<JobView[]> | undefined
    const jobsOf = (received: string[]) => received.map((l) => fromAppSchema.parse(JSON.parse(l)))
    const ended = (received: string[]) =>
      new Set(
        jobsOf(received)
          .flatMap((m) => (m.t === 'job' ? [doorJob.parse(m.job)] : []))
          .flatMap((j) => (['done', 'stopped', 'interrupted'].includes(j.status) ? [j.id] : [])),
      )
    const received = await converse(
      socket!,
      [
        { t: 'hello', token },
        { t: 'call', id: 1, channel: 'jobs.watch', payload: {} },
      ],
      (got) => jobsOf(got).some((m) => m.t === 'result' && m.id === 2),
      (got) => {
        // Watching: the window writes a transfer code, a password, and reads a service's code back.
        if (!started && jobsOf(got).some((m) => m.t === 'result' && m.id === 1)) {
          started = Promise.all([
            write('domains.transfer.request', { domain: 'incoming-door.org', authcode: AUTHCODE }),
            write('domains.dynamicdns.set', { domain: domains[0]!, dynamicdns: 1, password: DDNS_PASSWORD }),
            write('domains.transferlock.set', { domain: domains[1]!, transfer_lock: 0 }),
          ])
          return []
        }
        // All three ended (seen by the watcher): then the list.
        return ended(got).size >= 3 ? [{ t: 'call', id: 2, channel: 'jobs.list', payload: {} }] : []
      },
    )
    const jobs = await started!
    // The window's own view keeps what it typed (it is the user's): only the door's is without.
    expect(jobs[1]!.items[0]!.params).toMatchObject({ password: DDNS_PASSWORD })
    const text = received.join('\n')
    for (const secret of [AUTHCODE, DDNS_PASSWORD, ...serviceCodes]) expect(text).not.toContain(secret)
    // The jobs themselves did cross, with what is not secret.
    const listAnswer = jobsOf(received).flatMap((m) => (m.t === 'result' && m.id === 2 ? [m.result] : []))[0]
    const listed = z.object({ value: z.array(doorJob) }).parse(listAnswer).value
    for (const j of jobs) expect(listed.map((l) => l.id)).toContain(j.id)
    expect(listed.find((l) => l.id === jobs[1]!.id)!.items[0]!.params).toEqual({ domain: domains[0], dynamicdns: 1 })
    expect(jobsOf(received).filter((m) => m.t === 'job').length).toBeGreaterThanOrEqual(3)
  })

  it('reach a door client without a transfer code that the service’s error repeats, in any case or encoding, as they run and in the list', async () => {
    const code = 'Door+Echo/Code=77'
    const lowerEncoded = encodeURIComponent(code).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())
    sb.faults.inject('domains.transfer.request', {
      status: 400,
      times: 1,
      message: `Auth code ${code} is not valid (sent as ${lowerEncoded}; ${code.toUpperCase()}).`,
    })
    const { socket, token } = (await currentHolder(dataDir))!
    const messages = (received: string[]) => received.map((l) => fromAppSchema.parse(JSON.parse(l)))
    let started: Promise<JobView> | undefined
    const received = await converse(
      socket!,
      [
        { t: 'hello', token },
        { t: 'call', id: 1, channel: 'jobs.watch', payload: {} },
      ],
      (got) => messages(got).some((m) => m.t === 'result' && m.id === 2),
      (got) => {
        if (!started && messages(got).some((m) => m.t === 'result' && m.id === 1)) {
          started = write('domains.transfer.request', { domain: 'echoed-door.org', authcode: code })
          return []
        }
        const ended = messages(got).some(
          (m) => m.t === 'job' && doorJob.parse(m.job).items.some((it) => it.state === 'failed'),
        )
        return ended ? [{ t: 'call', id: 2, channel: 'jobs.list', payload: {} }] : []
      },
    )
    const job = await started!
    // The window's own view keeps the service's words as they came (the code is the user's own).
    expect(job.items[0]!.error?.serviceMessage).toContain(code)
    const text = received.join('\n')
    for (const form of [code, lowerEncoded, encodeURIComponent(code), code.toUpperCase()])
      expect(text.toLowerCase()).not.toContain(form.toLowerCase())
    // The failure itself did cross: its kind, code and the service's words around the code.
    const listed = z
      .object({ value: z.array(doorJob) })
      .parse(messages(received).flatMap((m) => (m.t === 'result' && m.id === 2 ? [m.result] : []))[0]).value
    const item = listed.find((l) => l.id === job.id)!.items[0]!
    expect(item).toMatchObject({
      state: 'failed',
      error: {
        kind: 'bad-request',
        serviceMessage: 'Auth code [redacted] is not valid (sent as [redacted]; [redacted]).',
      },
    })
  })
})

/** Of a job the door sends, what these checks read. */
const doorJob = z.looseObject({
  id: z.string(),
  status: z.string(),
  items: z.array(z.looseObject({ params: z.record(z.string(), z.unknown()), state: z.string() })),
})

/** Root can make a second local user; anyone else cannot, and the test says so. */
const HOSTILE = 'hostileuser'
function hostileUser(): { uid: number; gid: number } | string {
  if (process.getuid?.() !== 0) return 'not root: a second local user cannot be made'
  if (spawnSync('id', ['-u', HOSTILE]).status !== 0) {
    const made = spawnSync('useradd', ['-m', HOSTILE])
    if (made.error || made.status !== 0) return 'useradd is missing or failed'
  }
  const uid = Number(execFileSync('id', ['-u', HOSTILE], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', HOSTILE], { encoding: 'utf8' }).trim())
  return { uid, gid }
}
const hostile = hostileUser()
const skipReason = typeof hostile === 'string' ? hostile : ''

/** A fake door run by the other user: it records every connection and line it receives, and answers as the app would. */
async function fakeDoorAs(
  user: { uid: number; gid: number },
  socketPath: string,
): Promise<{ seen: () => string; stop: () => Promise<void> }> {
  const logDir = mkdtempSync(join(tmpdir(), 'hostile-log-'))
  chownSync(logDir, user.uid, user.gid)
  const log = join(logDir, 'seen.txt')
  const program = `
    const fs = require('node:fs'); const net = require('node:net')
    const server = net.createServer((s) => {
      fs.appendFileSync(${JSON.stringify(log)}, 'connection\\n')
      s.on('data', (d) => { fs.appendFileSync(${JSON.stringify(log)}, String(d)); s.write('{"t":"welcome"}\\n') })
    })
    server.listen(${JSON.stringify(socketPath)}, () => { fs.chmodSync(${JSON.stringify(socketPath)}, 0o777); console.log('listening') })
  `
  const child: ChildProcess = spawn(process.execPath, ['-e', program], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => String(d).includes('listening') && resolve())
    child.once('exit', (code) => reject(new Error(`the other user's door did not start (${code})`)))
  })
  return {
    seen: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    stop: async () => {
      child.kill('SIGKILL')
      await new Promise((r) => child.once('exit', r))
    },
  }
}

describe.skipIf(skipReason !== '')(`another local user (${skipReason || HOSTILE})`, () => {
  // The user made above; when none could be, this block is skipped and the ids below are never used.
  const user = typeof hostile === 'string' ? { uid: -1, gid: -1 } : hostile
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })

  it('pre-creating the old /tmp name for a long data folder gets nothing: the app does not use it, the command goes through the app’s own door', async () => {
    const dataDir = longFolder()
    const squatted = oldStyleSocket(dataDir)
    const fake = await fakeDoorAs(user, squatted)
    cleanups.push(fake.stop, () => rmSync(squatted, { force: true }))
    const services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [APP],
      keychain: async () => new SessionSecretStore(),
      storeWorkerUrl: WORKER,
    })
    cleanups.push(() => services.close())
    const holder = await currentHolder(dataDir)
    expect(holder?.socket).toBeDefined()
    expect(holder!.socket).not.toBe(squatted)
    // Still the other user's, untouched.
    expect(lstatSync(squatted).uid).toBe(user.uid)
    if (existsSync(CLI_BIN)) {
      const r = await runCli(['accounts'], { dataDir })
      expect(r.code).toBe(0)
      expect(r.err).toContain('through it')
    }
    expect(fake.seen()).toBe('')
  })

  it('owning the runtime directory or the door directory in it: the app puts its door elsewhere', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'door-hostile-'))
    // The runtime directory itself the other user's.
    const theirs = mkdtempSync(join(tmpdir(), 'runtime-theirs-'))
    chownSync(theirs, user.uid, user.gid)
    expect(await chooseDoorPlace(dataDir, { runtimeDir: theirs })).toMatchObject({
      ok: true,
      place: { socket: join(dataDir, 'run', 'cli.sock') },
      refused: [{ dir: theirs, reason: 'notOwner' }],
    })
    // Ours, but its hosting-admin directory made first by the other user (mode 0700, theirs).
    const ours = mkdtempSync(join(tmpdir(), 'runtime-ours-'))
    mkdirSync(join(ours, 'hosting-admin'), { mode: 0o700 })
    chownSync(join(ours, 'hosting-admin'), user.uid, user.gid)
    expect(await chooseDoorPlace(dataDir, { runtimeDir: ours })).toMatchObject({
      ok: true,
      refused: [{ dir: join(ours, 'hosting-admin'), reason: 'notOwner' }],
    })
    // The app started with that runtime directory: its door is in the data folder's own `run`.
    process.env.XDG_RUNTIME_DIR = ours
    cleanups.push(() => {
      delete process.env.XDG_RUNTIME_DIR
    })
    const services = await createAppServices({
      userDataDir: dataDir,
      allowedOrigins: [APP],
      keychain: async () => new SessionSecretStore(),
      storeWorkerUrl: WORKER,
    })
    cleanups.push(() => services.close())
    expect((await currentHolder(dataDir))?.socket).toBe(join(dataDir, 'run', 'cli.sock'))
  })

  it('the command does not talk to a door in a directory the other user controls, even when the holder file names it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'door-advertised-'))
    const theirDir = mkdtempSync(join(tmpdir(), 'their-door-'))
    chownSync(theirDir, user.uid, user.gid)
    const theirSocket = join(theirDir, 'cli.sock')
    const fake = await fakeDoorAs(user, theirSocket)
    cleanups.push(fake.stop)
    // A real holder of the folder whose holder file names that socket.
    const holder: LockChild = await startLockChild(dataDir, 'app')
    cleanups.push(() => holder.kill9())
    await holder.next('ready')
    expect(await holder.ask('take', 'took')).toMatchObject({ ok: true })
    expect(await holder.ask(`door ${theirSocket} ${'a'.repeat(48)}`, 'door')).toMatchObject({ ok: true })
    if (!existsSync(CLI_BIN)) return
    const r = await runCli(['accounts'], { dataDir })
    expect(r.code).toBe(1)
    expect(r.err).toContain(`process ${holder.pid}`)
    expect(r.err).toContain('door')
    // Not even a connection: the token never left.
    expect(fake.seen()).toBe('')
  })
})
