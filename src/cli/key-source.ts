/**
 * Where the command finds an API key when no desktop session (so no Secret Service) is there to
 * ask: cron, systemd timers, `certbot renew`. In this order, the first one given wins:
 *
 *   --key-file <path>                 a file holding the key alone
 *   --key-stdin                       standard input, piped (key-stdin.ts)
 *   HOSTING_ADMIN_KEY_FILE=<path>     the same, from the environment
 *   $CREDENTIALS_DIRECTORY/<name>     a systemd credential (LoadCredential=, LoadCredentialEncrypted=);
 *                                     <name> is hosting-admin-api-key unless --key-credential names another
 *
 * and else the keychain (interactive use). Never a key in argv: a command line is readable by
 * every user of the machine (ps, /proc), so there is no option that takes the key itself.
 *
 * A key file is refused, as ssh and certbot's DNS plugins refuse theirs, when it is not a
 * regular file (a symlink is followed to what it names), when group or others have any
 * permission on it (read: the key may be known; write: it may be someone else's key), or when
 * it is not owned by the user running the command. A systemd credential is checked by the
 * rule systemd writes them by: mode 0400, owned by the service's user, or owned by root and
 * given to the service's user by an ACL, whose mask then shows as the group's bits (0440). So
 * for a credential root is an owner too and the group's bits are allowed; others' never.
 *
 * The credentials directory is checked as systemd makes it before anything in it is read:
 * owned by the service's user or by root, read-only (no one else may write in it: whoever can
 * could put a credential there, or a link to one of the user's own files, sent as the key),
 * and the credential a file of the directory itself, not a link leading out of it.
 *
 * The file is opened once and checked on that open file (fstat), so what is read is what was
 * checked. Its content is never printed, logged or put in an error: problems carry the path,
 * the mode and owners only.
 */
import { constants } from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'

const KEY_FILE_VARIABLE = 'HOSTING_ADMIN_KEY_FILE'
export const KEY_CREDENTIAL = 'hosting-admin-api-key'

/** A key is one short token; a larger file is not a key file (and is not read whole). */
export const MAX_KEY_BYTES = 4096

export type KeyProblemCode =
  | 'cli.key.unreadable'
  | 'cli.key.notFile'
  | 'cli.key.openToOthers'
  | 'cli.key.writableByOthers'
  | 'cli.key.openMode'
  | 'cli.key.notOwner'
  | 'cli.key.empty'
  | 'cli.key.notAKey'
  | 'cli.key.twoSources'
  | 'cli.key.badCredentialName'
  | 'cli.key.noCredentialsDirectory'
  | 'cli.key.credentialMissing'
  | 'cli.key.credentialsDirUnreadable'
  | 'cli.key.credentialsDirNotOwner'
  | 'cli.key.credentialsDirWritable'
  | 'cli.key.credentialOutside'
  | 'cli.key.stdinTerminal'
  | 'cli.key.stdinEmpty'
  | 'cli.key.stdinNotAKey'

export interface KeyProblem {
  code: KeyProblemCode
  params: Record<string, string | number>
}

export interface KeySource {
  from: 'key-file' | 'environment' | 'credential' | 'stdin'
  /** The file it was read from ('-' for standard input). */
  path: string
  key: string
}

export type KeySourceFound = { ok: true; source: KeySource | undefined } | { ok: false; problem: KeyProblem }

/** What the command needs to know of a file it opened: fstat's answer. */
export interface FileFacts {
  isFile: boolean
  mode: number
  uid: number
}

export type KeyRule = 'key-file' | 'credential'

/** The file mode as chmod writes it (0644). */
export const modeText = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`

/**
 * Why a key file or credential may not be used (a code with its parameters), or undefined when
 * it may. `me` is the user running the command; undefined where the system has no user ids
 * (Windows: its files are guarded by ACLs, which the mode does not show, so only "a regular
 * file" is checked there).
 */
export function refusalOf(
  path: string,
  facts: FileFacts,
  rule: KeyRule,
  me: number | undefined,
): KeyProblem | undefined {
  if (!facts.isFile) return { code: 'cli.key.notFile', params: { file: path } }
  if (me === undefined) return undefined
  const owners = rule === 'credential' ? [me, 0] : [me]
  if (!owners.includes(facts.uid)) return { code: 'cli.key.notOwner', params: { file: path, owner: facts.uid, me } }
  const others = facts.mode & (rule === 'credential' ? 0o007 : 0o077)
  const params = { file: path, mode: modeText(facts.mode) }
  // Said as what others may do: read it (the key may be known), else write it (the key may be theirs).
  if ((others & 0o444) !== 0) return { code: 'cli.key.openToOthers', params }
  if ((others & 0o222) !== 0) return { code: 'cli.key.writableByOthers', params }
  if (others !== 0) return { code: 'cli.key.openMode', params }
  return undefined
}

/** The key in a file's text: the text without the whitespace around it (an editor's last newline); one word, or none. */
export function keyOfText(path: string, text: string): { ok: true; key: string } | { ok: false; problem: KeyProblem } {
  const key = text.replace(/^\uFEFF/, '').trim()
  if (key === '') return { ok: false, problem: { code: 'cli.key.empty', params: { file: path } } }
  // Several lines or words, or control characters: not a key, and not to be sent as one.
  if (/[\s\p{Cc}]/u.test(key)) return { ok: false, problem: { code: 'cli.key.notAKey', params: { file: path } } }
  return { ok: true, key }
}

const errnoOf = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'unknown'

/**
 * Reads a key from a file after checking it by `rule`. `missing` is what an absent file means:
 * a problem (a path the user named), or nothing (a credential systemd was not asked to load).
 */
async function readKeyFile(
  path: string,
  rule: KeyRule,
  me: number | undefined,
  missing: KeyProblem | 'none' = { code: 'cli.key.unreadable', params: { file: path, reason: 'ENOENT' } },
  followLinks = true,
): Promise<{ ok: true; key: string | undefined } | { ok: false; problem: KeyProblem }> {
  let handle
  try {
    // Non-blocking: a FIFO named as the key file is refused below instead of holding the open.
    handle = await open(
      path,
      constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (followLinks ? 0 : (constants.O_NOFOLLOW ?? 0)),
    )
  } catch (err) {
    const reason = errnoOf(err)
    if (reason === 'ENOENT') return missing === 'none' ? { ok: true, key: undefined } : { ok: false, problem: missing }
    return { ok: false, problem: { code: 'cli.key.unreadable', params: { file: path, reason } } }
  }
  try {
    const st = await handle.stat()
    const refused = refusalOf(path, { isFile: st.isFile(), mode: st.mode, uid: st.uid }, rule, me)
    if (refused) return { ok: false, problem: refused }
    const buffer = Buffer.alloc(MAX_KEY_BYTES + 1)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    buffer.fill(0)
    if (bytesRead > MAX_KEY_BYTES) return { ok: false, problem: { code: 'cli.key.notAKey', params: { file: path } } }
    const found = keyOfText(path, text)
    return found.ok ? { ok: true, key: found.key } : found
  } catch (err) {
    return { ok: false, problem: { code: 'cli.key.unreadable', params: { file: path, reason: errnoOf(err) } } }
  } finally {
    await handle.close()
  }
}

type Checked<T> = { ok: true; value: T } | { ok: false; problem: KeyProblem }

/**
 * $CREDENTIALS_DIRECTORY as systemd makes it, or why it is not: its real path (links resolved),
 * a directory owned by the user running the command or by root (systemd's, with an ACL for the
 * service's user), that neither group nor others may write in (systemd takes every write bit
 * away once the credentials are in). Where there are no user ids (Windows), only that it is a
 * directory.
 */
async function credentialsDirectoryOf(dir: string, me: number | undefined): Promise<Checked<string>> {
  const unusable = (reason: string): Checked<string> => ({
    ok: false,
    problem: { code: 'cli.key.credentialsDirUnreadable', params: { dir, reason } },
  })
  let real: string
  let st
  try {
    real = await realpath(dir)
    st = await stat(real)
  } catch (err) {
    return unusable(errnoOf(err))
  }
  if (!st.isDirectory()) return unusable('ENOTDIR')
  if (me === undefined) return { ok: true, value: real }
  if (st.uid !== me && st.uid !== 0)
    return { ok: false, problem: { code: 'cli.key.credentialsDirNotOwner', params: { dir, owner: st.uid, me } } }
  if ((st.mode & 0o022) !== 0)
    return { ok: false, problem: { code: 'cli.key.credentialsDirWritable', params: { dir, mode: modeText(st.mode) } } }
  return { ok: true, value: real }
}

/**
 * The credential's own path in the (checked) directory: the file itself, or what a link to
 * another of its files names; undefined when there is none. A link leading out of the directory
 * is refused: systemd writes each credential as a file of its own.
 */
async function credentialPathIn(real: string, dir: string, name: string): Promise<Checked<string | undefined>> {
  let target: string
  try {
    target = await realpath(join(real, name))
  } catch (err) {
    const reason = errnoOf(err)
    if (reason === 'ENOENT') return { ok: true, value: undefined }
    return { ok: false, problem: { code: 'cli.key.unreadable', params: { file: join(dir, name), reason } } }
  }
  if (dirname(target) !== real)
    return { ok: false, problem: { code: 'cli.key.credentialOutside', params: { name, dir, target } } }
  return { ok: true, value: target }
}

/** A credential's name as systemd takes it: a file name of its directory. */
const isCredentialName = (name: string) =>
  name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && name.length <= 255

export interface KeySourceRequest {
  /** --key-file */
  keyFile: string | undefined
  /** --key-credential */
  credential: string | undefined
  /** --key-stdin: how standard input is read (key-stdin.ts). */
  stdin?: (() => Promise<{ ok: true; key: string } | { ok: false; problem: KeyProblem }>) | undefined
  env: NodeJS.ProcessEnv
  /** The user running the command (process.getuid()); undefined on Windows. */
  me: number | undefined
}

/**
 * The key source the command was given, read and checked; `source: undefined` when none was
 * given (the keychain is then used). A source given but unusable is a problem (exit 2): the
 * command never falls back from a named source to another one.
 */
export async function keySourceOf(req: KeySourceRequest): Promise<KeySourceFound> {
  const named = [req.keyFile, req.credential, req.stdin].filter((given) => given !== undefined)
  if (named.length > 1) return { ok: false, problem: { code: 'cli.key.twoSources', params: {} } }
  const fromFile = async (path: string, from: 'key-file' | 'environment'): Promise<KeySourceFound> => {
    const read = await readKeyFile(path, 'key-file', req.me)
    if (!read.ok) return read
    return read.key === undefined
      ? { ok: true, source: undefined }
      : { ok: true, source: { from, path, key: read.key } }
  }
  if (req.keyFile !== undefined) return fromFile(req.keyFile, 'key-file')
  if (req.stdin) {
    const read = await req.stdin()
    return read.ok ? { ok: true, source: { from: 'stdin', path: '-', key: read.key } } : read
  }
  const fromEnv = req.env[KEY_FILE_VARIABLE]
  if (fromEnv) return fromFile(fromEnv, 'environment')
  const name = req.credential ?? KEY_CREDENTIAL
  if (!isCredentialName(name)) return { ok: false, problem: { code: 'cli.key.badCredentialName', params: { name } } }
  const dir = req.env.CREDENTIALS_DIRECTORY
  if (!dir)
    return req.credential === undefined
      ? { ok: true, source: undefined }
      : { ok: false, problem: { code: 'cli.key.noCredentialsDirectory', params: { name } } }
  // The directory first: whatever is in one systemd did not make (or a link out of it) is not read.
  const real = await credentialsDirectoryOf(dir, req.me)
  if (!real.ok) return real
  const found = await credentialPathIn(real.value, dir, name)
  if (!found.ok) return found
  // The default name absent: the unit loads other credentials, not this one; the keychain is asked.
  const missing =
    req.credential === undefined
      ? ('none' as const)
      : { code: 'cli.key.credentialMissing' as const, params: { name, dir } }
  if (found.value === undefined)
    return missing === 'none' ? { ok: true, source: undefined } : { ok: false, problem: missing }
  // Opened without following a link: what was found in the directory is what is read.
  const path = found.value
  const read = await readKeyFile(path, 'credential', req.me, missing, false)
  if (!read.ok) return read
  return read.key === undefined
    ? { ok: true, source: undefined }
    : { ok: true, source: { from: 'credential', path, key: read.key } }
}
