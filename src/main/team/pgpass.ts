/**
 * PostgreSQL's password file (`~/.pgpass`, or the file `PGPASSFILE` names; on Windows
 * `%APPDATA%\postgresql\pgpass.conf`), read by the app itself with libpq's own rules rather than
 * through pg's deprecated reader, which prints a deprecation warning on stderr at every use (cron
 * mails it; certbot reports a hook's stderr as an error). libpq's rules (fe-connect.c,
 * passwordFromFile): lines `host:port:database:user:password`, `#` at the start of a line a
 * comment, `*` alone a field matching anything, `\` escaping `:` and `\`, the first line that
 * matches wins; a host that is empty or libpq's default socket folder matches as `localhost`; a file that is
 * not a plain file, or that its group or others may read (Unix), is ignored.
 */
import { readFile, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface PassfileTarget {
  host: string
  port: number
  database: string
  user: string
}

export type PassfileAnswer =
  /** The first matching line's password. */
  | { found: true; password: string; file: string }
  /** No password from it: absent, no matching line, or ignored (`ignored`: why, as libpq would have warned). */
  | { found: false; file: string; ignored?: 'notPlainFile' | 'groupOrWorldAccess' }

/** Which password file libpq would read, with this environment. */
export function passfileOf(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PGPASSFILE) return env.PGPASSFILE
  if (platform === 'win32') return join(env.APPDATA ?? '', 'postgresql', 'pgpass.conf')
  // libpq: $HOME, else the user's home in the passwd database, which is what homedir() does.
  return join(env.HOME || homedir(), '.pgpass')
}

/** One field against its value: the rest of the line after it, or undefined when it does not match (libpq's pwdfMatchesString, an unescaped `:` inside the value included, as in an IPv6 address). */
function matchField(rest: string, value: string): string | undefined {
  if (rest.startsWith('*:')) return rest.slice(2)
  let i = 0
  let j = 0
  while (i < rest.length) {
    let escaped = false
    if (rest[i] === '\\') {
      i++
      escaped = true
    }
    const c = rest[i]
    if (c === ':' && j === value.length && !escaped) return rest.slice(i + 1)
    if (j === value.length || c !== value[j]) return undefined
    i++
    j++
  }
  return undefined
}

/** The password field: up to the first unescaped `:`, its escapes removed. */
function passwordField(rest: string): string {
  let out = ''
  for (let i = 0; i < rest.length; i++) {
    let c = rest[i]
    if (c === ':') break
    if (c === '\\' && i + 1 < rest.length) c = rest[++i]
    out += c
  }
  return out
}

const DEFAULT_SOCKET_FOLDERS = new Set(['/tmp', '/var/run/postgresql', '/run/postgresql'])

/** The password of the first line of `text` that matches `t` (libpq's matching), else undefined. */
export function passwordFromPassfileText(text: string, t: PassfileTarget): string | undefined {
  // No host, or the socket folder libpq was built with (upstream's, Debian's), is "localhost" to the password file.
  const host = t.host === '' || DEFAULT_SOCKET_FOLDERS.has(t.host) ? 'localhost' : t.host
  for (const raw of text.split('\n')) {
    if (raw.startsWith('#')) continue
    const line = raw.replace(/[\r\n]+$/, '')
    if (line === '') continue
    let rest: string | undefined = line
    for (const value of [host, String(t.port), t.database, t.user]) {
      rest = matchField(rest, value)
      if (rest === undefined) break
    }
    if (rest !== undefined) return passwordField(rest)
  }
  return undefined
}

/** The password file's answer for `t`, read now (it may change between connections, as libpq reads it at each). */
export async function passwordFromPassfile(
  t: PassfileTarget,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<PassfileAnswer> {
  const file = passfileOf(env, platform)
  if (t.database === '' || t.user === '') return { found: false, file }
  let mode: number
  let plain: boolean
  try {
    const st = await stat(file)
    mode = st.mode
    plain = st.isFile()
  } catch {
    return { found: false, file }
  }
  if (platform !== 'win32') {
    if (!plain) return { found: false, file, ignored: 'notPlainFile' }
    if ((mode & 0o077) !== 0) return { found: false, file, ignored: 'groupOrWorldAccess' }
  }
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return { found: false, file }
  }
  const password = passwordFromPassfileText(text, t)
  return password === undefined ? { found: false, file } : { found: true, password, file }
}
