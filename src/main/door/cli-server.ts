/**
 * The running app's door for the `hosting-admin` command. While the app runs it holds the data
 * folder (data-lock.ts), so a command cannot open the journal and runner itself; instead it sends
 * its calls here and the app's own router runs them, as it runs the window's: the same runner
 * (one write per target at a time, whoever asks), journal, safety levels and history, and the
 * command's writes appear in the app's Writes as they run.
 *
 * A local socket (a Unix socket of the user's in a directory only the user can enter, or a named
 * pipe of a random name on Windows: door-path.ts), one JSON message per line. The first message
 * must carry the token written in the data folder's holder file, which only the user can read;
 * anything else closes the connection with nothing done. The door is advertised (written into
 * the holder file) only once it listens; jobs cross it without the user's secrets.
 */
import { timingSafeEqual } from 'node:crypto'
import { chmod, rm, unlink } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { dirname } from 'node:path'
import type { IpcRouter } from '../ipc/router'
import type { Sender } from '../ipc/channel'
import type { AppLog } from '../base/app-log'
import type { Result } from '@shared/ipc/contract'
import { CLI_ORIGIN, doorLine, toAppSchema, type FromApp } from '@shared/ipc/door-messages'
import { privateDirRefusal, type DoorPlace } from './door-path'
import { jobsAnswerWithoutSecrets, jobWithoutSecrets } from '../jobs/door-view'

/** One message's longest line: a whole zone's records fit many times over. */
const MAX_LINE = 4 * 1024 * 1024

export interface CliServer {
  close(): Promise<void>
}

export interface CliServerOptions {
  /** Where to listen (door-path.ts chose it and checked its directory). */
  place: DoorPlace
  token: string
  router: IpcRouter
  log: AppLog
}

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The directory of the door was not the user's alone when the app was about to listen. */
class DoorDirRefused extends Error {
  constructor(readonly reason: string) {
    super(`door directory refused: ${reason}`)
    this.name = 'DoorDirRefused'
  }
}

export async function startCliServer(opts: CliServerOptions): Promise<CliServer> {
  const { socket: socketPath, madeForRun } = opts.place
  const unix = process.platform !== 'win32'
  let connections = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    serveConnection(socket, `cli-${++connections}`, opts)
  })
  if (unix) {
    // Checked again just before listening: only the user can have put anything in it, so a
    // socket already there is one of the user's own, left by a crash.
    const refusal = await privateDirRefusal(dirname(socketPath))
    if (refusal) throw new DoorDirRefused(refusal)
    await unlink(socketPath).catch(() => undefined)
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ path: socketPath, readableAll: false, writableAll: false }, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (err) {
    if (madeForRun) await rm(madeForRun, { recursive: true, force: true }).catch(() => undefined)
    throw err
  }
  if (unix) await chmod(socketPath, 0o600)
  server.on('error', (err) => opts.log.warn('cli.serverFailed', { error: err.name }))
  return {
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (unix) await unlink(socketPath).catch(() => undefined)
      if (madeForRun) await rm(madeForRun, { recursive: true, force: true }).catch(() => undefined)
    },
  }
}

/** A `jobs.*` answer leaves without the secrets of the jobs in it (the window's jobs included). */
function forDoor(channel: string, result: Result<unknown>): Result<unknown> {
  return result.ok && channel.startsWith('jobs.') ? { ok: true, value: jobsAnswerWithoutSecrets(result.value) } : result
}

function serveConnection(socket: Socket, key: string, opts: CliServerOptions): void {
  let greeted = false
  let buffered = ''
  const write = (message: FromApp) => {
    if (!socket.destroyed) socket.write(doorLine(message))
  }
  const sender: Sender = {
    url: `${CLI_ORIGIN}/`,
    key,
    sendProgress: (p) => write({ t: 'progress', p }),
    sendJob: (job) => {
      if (socket.destroyed) return false
      write({ t: 'job', job: jobWithoutSecrets(job) })
      return true
    },
  }
  const refuse = (reason: string) => {
    opts.log.warn('cli.refused', { reason })
    socket.destroy()
  }
  async function handle(line: string): Promise<void> {
    let raw: unknown
    try {
      raw = JSON.parse(line)
    } catch {
      return refuse('notJson')
    }
    const parsed = toAppSchema.safeParse(raw)
    if (!parsed.success) return refuse('badMessage')
    const m = parsed.data
    if (!greeted) {
      if (m.t !== 'hello' || !sameToken(m.token, opts.token)) return refuse('badToken')
      greeted = true
      write({ t: 'welcome' })
      return
    }
    if (m.t === 'hello') return
    // Every call, the DDNS history record included, is a contract channel the router checks.
    write({
      t: 'result',
      id: m.id,
      result: forDoor(m.channel, await opts.router.dispatch(m.channel, m.payload, sender)),
    })
  }
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    buffered += chunk
    if (buffered.length > MAX_LINE) return refuse('tooLong')
    let newline = buffered.indexOf('\n')
    while (newline >= 0) {
      const line = buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      if (line.trim()) {
        handle(line).catch((err: unknown) => {
          opts.log.warn('cli.callFailed', { error: err instanceof Error ? err.name : 'unknown' })
          socket.destroy()
        })
      }
      newline = buffered.indexOf('\n')
    }
  })
  socket.on('error', () => socket.destroy())
}
