/**
 * The running app's door for the `hosting-admin` command. While the app runs it holds the data
 * folder (data-lock.ts), so a command cannot open the journal and runner itself; instead it sends
 * its calls here and the app's own router runs them, as it runs the window's: the same runner
 * (one write per target at a time, whoever asks), journal, safety levels and history, and the
 * command's writes appear in the app's Writes as they run.
 *
 * A local socket (a Unix socket readable by the user only, or a named pipe on Windows), one JSON
 * message per line. The first message must carry the token written in the data folder's lock
 * file, which only the user can read; anything else closes the connection with nothing done.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { chmod, unlink } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { IpcRouter } from './ipc/router'
import type { Sender } from './ipc/channel'
import type { AppLog } from './log/app-log'

/** The command's origin, as the router checks senders: only this server makes senders of it. */
export const CLI_ORIGIN = 'cli://hosting-admin'

/** One message's longest line: a whole zone's records fit many times over. */
const MAX_LINE = 4 * 1024 * 1024

/**
 * Where the app listens for the data folder: a socket in it, or (a Unix socket path is limited to
 * about 100 bytes) one in the temporary folder named by a hash of it; a named pipe on Windows.
 */
export function cliSocketPathOf(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  const hash = createHash('sha256').update(dataDir).digest('hex').slice(0, 24)
  if (platform === 'win32') return `\\\\.\\pipe\\hosting-admin-${hash}`
  const inFolder = join(dataDir, 'cli.sock')
  return Buffer.byteLength(inFolder) <= 100 ? inFolder : join(tmpdir(), `hosting-admin-${hash}.sock`)
}

export const ddnsRecordSchema = z.object({
  accountId: z.string().max(200),
  domain: z.string().max(253),
  host: z.string().max(253),
  ip: z.string().max(45),
  ok: z.boolean(),
})
export type DdnsRecord = z.infer<typeof ddnsRecordSchema>

/** What the command sends, validated here once. */
const messageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), token: z.string().max(200) }),
  z.object({ t: z.literal('call'), id: z.number().int().nonnegative(), channel: z.string().max(100), payload: z.unknown() }),
  z.object({ t: z.literal('recordDdns'), id: z.number().int().nonnegative(), entry: ddnsRecordSchema }),
])

export interface CliServer {
  close(): Promise<void>
}

export interface CliServerOptions {
  socketPath: string
  token: string
  router: IpcRouter
  recordDdns(entry: DdnsRecord): Promise<void>
  log: AppLog
}

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export async function startCliServer(opts: CliServerOptions): Promise<CliServer> {
  let connections = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    serveConnection(socket, `cli-${++connections}`, opts)
  })
  // The folder is this process's (it holds the lock): a socket left by a crash is stale.
  if (process.platform !== 'win32') await unlink(opts.socketPath).catch(() => undefined)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.socketPath, () => {
      server.off('error', reject)
      resolve()
    })
  })
  if (process.platform !== 'win32') await chmod(opts.socketPath, 0o600)
  server.on('error', (err) => opts.log.warn('cli.serverFailed', { error: err.name }))
  return {
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (process.platform !== 'win32') await unlink(opts.socketPath).catch(() => undefined)
    },
  }
}

function serveConnection(socket: Socket, key: string, opts: CliServerOptions): void {
  let greeted = false
  let buffered = ''
  const write = (message: object) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`)
  }
  const sender: Sender = {
    url: `${CLI_ORIGIN}/`,
    key,
    sendProgress: (p) => write({ t: 'progress', p }),
    sendJob: (job) => {
      if (socket.destroyed) return false
      write({ t: 'job', job })
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
    const parsed = messageSchema.safeParse(raw)
    if (!parsed.success) return refuse('badMessage')
    const m = parsed.data
    if (!greeted) {
      if (m.t !== 'hello' || !sameToken(m.token, opts.token)) return refuse('badToken')
      greeted = true
      write({ t: 'welcome' })
      return
    }
    if (m.t === 'hello') return
    if (m.t === 'call') {
      write({ t: 'result', id: m.id, result: await opts.router.dispatch(m.channel, m.payload, sender) })
      return
    }
    await opts.recordDdns(m.entry)
    write({ t: 'result', id: m.id, result: { ok: true, value: null } })
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
