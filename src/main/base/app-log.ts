/**
 * The app's log: one file in the app's data folder (`logs/main.log`, rotated to
 * `main.old.log` past 1 MB), written by electron-log. Lines are events with fields, never
 * sentences and never payloads: `ipc.failed channel=domains.dns.get kind=http code=http.status`.
 * Every line goes through the redaction first, and electron-log's own hook redacts again
 * whatever else reaches it.
 *
 * electron-log's Node entry is used, not its `main` entry: the main entry registers an IPC
 * channel of its own that any page could write to, outside the checked contract.
 */
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import electronLog from 'electron-log/node'
import { Redactor } from './redaction'

export type LogFields = Record<string, string | number | boolean | null | undefined>
export type LogLevel = 'info' | 'warn' | 'error'

export interface AppLog {
  readonly dir: string
  readonly file: string
  /**
   * Why the file cannot be written (a read-only data folder, say), when it cannot: then lines
   * are kept in memory only, for this run's diagnostics.
   */
  readonly notKept: { reason: string } | undefined
  /** The redaction every line goes through; keys are added to it as they are learned. */
  readonly redactor: Redactor
  info(event: string, fields?: LogFields): void
  warn(event: string, fields?: LogFields): void
  error(event: string, fields?: LogFields): void
  /** The last `count` lines, across the rotated file and the current one. */
  tail(count: number): Promise<string[]>
}

export interface AppLogOptions {
  dir: string
  /** Rotation size in bytes (tests make it small). */
  maxSize?: number
  /** Also print to the console (development). */
  console?: boolean
  redactor?: Redactor
}

/** The app's log in its usual place under the user-data folder. */
export const logDirOf = (userDataDir: string) => join(userDataDir, 'logs')

const MAX_FIELD_CHARS = 2000
/** Lines kept in memory when the file cannot be written (what diagnostics show). */
const MEMORY_LINES = 500
let instances = 0

/** Whether the log's folder and file can be written; the system's reason when not. */
function unwritable(dir: string, file: string): { reason: string } | undefined {
  try {
    // The user's own only: the log names domains, accounts and events, nothing another local user
    // should read. A folder or file made by an earlier version with wider modes is narrowed.
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    appendFileSync(file, '', { mode: 0o600 })
    if (process.platform !== 'win32') {
      chmodSync(dir, 0o700)
      chmodSync(file, 0o600)
    }
    return undefined
  } catch (err) {
    return {
      reason:
        typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown',
    }
  }
}

/** `key=value` pairs; values with spaces or quotes are JSON-quoted so a line parses back. */
export function formatFields(fields: LogFields = {}): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      const s = String(v).slice(0, MAX_FIELD_CHARS)
      return `${k}=${/^[^\s"=]*$/.test(s) && s !== '' ? s : JSON.stringify(s)}`
    })
    .join(' ')
}

/**
 * Whether the console went away: the terminal that started the app closed, or the reader of its
 * pipe ended. A write to it then fails with EPIPE, emitted on the stream as an error that no one
 * listened to: main's uncaught-exception handler logged it, to the console again, which failed
 * again, for ever at full CPU. Once gone, nothing more is printed; the file keeps every line.
 */
let consoleGone = false
let watchingConsole = false
function watchConsole(): void {
  if (watchingConsole) return
  watchingConsole = true
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => (consoleGone = true))
}

export function createAppLog(opts: AppLogOptions): AppLog {
  const redactor = opts.redactor ?? new Redactor()
  const file = join(opts.dir, 'main.log')
  // One electron-log instance per AppLog (tests make several in one process).
  const logger = electronLog.create({ logId: `hosting-admin-${++instances}` })
  logger.transports.file.resolvePathFn = () => file
  logger.transports.file.maxSize = opts.maxSize ?? 1024 * 1024
  // A file electron-log makes anew after a rotation is the user's own only too (its default is 0666).
  logger.transports.file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' }
  logger.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}'
  logger.transports.console.level = opts.console ? 'info' : false
  if (opts.console) watchConsole()
  logger.transports.remote.level = false
  logger.hooks.push((message) => ({
    ...message,
    data: message.data.map((d: unknown) => redactor.redact(typeof d === 'string' ? d : String(d))),
  }))
  const notKept = unwritable(opts.dir, file)
  // A file that cannot be written is not tried for every line: the lines stay in memory.
  if (notKept) logger.transports.file.level = false
  const memory: string[] = []

  const write = (level: LogLevel) => (event: string, fields?: LogFields) => {
    const line = redactor.redact([event, formatFields(fields)].filter(Boolean).join(' ')).replace(/[\r\n]+/g, ' ')
    if (consoleGone) logger.transports.console.level = false
    logger[level](line)
    if (notKept) {
      memory.push(`[${new Date().toISOString()}] [${level}] ${line}`)
      if (memory.length > MEMORY_LINES) memory.shift()
    }
  }
  return {
    dir: opts.dir,
    file,
    notKept,
    redactor,
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    async tail(count) {
      if (notKept) return memory.slice(-count)
      const read = (path: string) =>
        readFile(path, 'utf8').then(
          (t) => t.split(/\r?\n/).filter(Boolean),
          (): string[] => [],
        )
      const lines = [...(await read(join(opts.dir, 'main.old.log'))), ...(await read(file))]
      return lines.slice(-count).map((l) => redactor.redact(l))
    },
  }
}
