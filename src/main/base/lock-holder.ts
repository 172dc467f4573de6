/**
 * Who says they hold a data folder: `in-use.lock` beside the folder's OS lock (data-lock.ts).
 * Kept apart from the lock itself, and read without a schema library, so that a reader that only
 * asks whether the app runs on the folder (the quick `hosting-admin accounts`, issue 52 point 7)
 * loads neither SQLite nor zod for it.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** The app also writes where the command reaches it (cli-server.ts) and the token it asks for. */
export type LockHolder = {
  pid: number
  host: string
  who: 'app' | 'cli'
  since: string
  socket?: string | undefined
  token?: string | undefined
}

export const lockFileOf = (dir: string) => join(dir, 'in-use.lock')

const MAX_SOCKET = 500
const MAX_TOKEN = 200

const optionalText = (value: unknown, max: number): value is string | undefined =>
  value === undefined || (typeof value === 'string' && value.length <= max)

/** A holder file's content as its writer wrote it; anything else (a torn or foreign file) is no holder. */
function holderIn(json: unknown): LockHolder | undefined {
  if (typeof json !== 'object' || json === null) return undefined
  const field = new Map<string, unknown>(Object.entries(json))
  const [pid, host, who, since, socket, token] = ['pid', 'host', 'who', 'since', 'socket', 'token'].map((k) =>
    field.get(k),
  )
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined
  if (typeof host !== 'string' || typeof since !== 'string' || (who !== 'app' && who !== 'cli')) return undefined
  if (!optionalText(socket, MAX_SOCKET) || !optionalText(token, MAX_TOKEN)) return undefined
  return {
    pid,
    host,
    who,
    since,
    ...(socket === undefined ? {} : { socket }),
    ...(token === undefined ? {} : { token }),
  }
}

/** The holder a holder file names, or undefined (none, unreadable, not a holder's). */
export async function holderOf(file: string): Promise<LockHolder | undefined> {
  try {
    return holderIn(JSON.parse(await readFile(file, 'utf8')))
  } catch {
    return undefined
  }
}

export function codeOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown'
}

/** Whether a process of this machine runs (EPERM: it runs as another user). */
export function runs(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return codeOf(err) === 'EPERM'
  }
}
