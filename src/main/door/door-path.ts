/**
 * Where the app's door for the command (cli-server.ts) is, and whether a door may be trusted.
 *
 * On Unix the socket is in a directory only the user can enter, so no other local user can
 * create it first (and receive the command's token and calls), nor connect to it: the user's
 * runtime directory (`$XDG_RUNTIME_DIR/hosting-admin/`), else `run/` in the data folder, else
 * (a socket path is limited to about 100 bytes) a directory of a random name made for this run
 * in the temporary folder. A directory is trusted only as a real directory (not a link), owned
 * by the user, entered by nobody else (mode 0700 or stricter). The app checks it before it
 * listens; the command checks it again before it connects, so it never talks to a door in a
 * directory another user controls. The command finds the socket in the holder file, which only
 * the user can read, so the name itself need not be secret.
 *
 * On Windows the door is a named pipe whose name has a random part, written only in the holder
 * file: another user cannot create it first (libuv makes the first instance with
 * FILE_FLAG_FIRST_PIPE_INSTANCE, so listening fails if the name is taken) and does not know it.
 * Node cannot set a pipe's access list without native code: the pipe keeps Windows's default
 * one (full control for the user, SYSTEM and administrators, read for everyone), and the token
 * is what keeps another user's client from being answered.
 */
import { createHash, randomBytes } from 'node:crypto'
import { lstat, mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'

/** Unix socket paths are limited to 108 bytes on Linux, 104 on macOS. */
const MAX_SOCKET_PATH = 100
/** The prefix every door pipe's name starts with on Windows. */
const PIPE_PREFIX = '\\\\.\\pipe\\hosting-admin-'

export type DoorPlace = {
  socket: string
  /** A directory made for this run alone, removed with the door. */ madeForRun?: string | undefined
}
type DoorRefusal = { dir: string; reason: DirRefusal }
type DirRefusal = 'missing' | 'notDirectory' | 'symlink' | 'notOwner' | 'openToOthers' | 'tooLong'

const uid = (): number | undefined => process.getuid?.()

/** Why a directory cannot hold the door (undefined: it can): ours, a real directory, closed to others. */
export async function privateDirRefusal(dir: string): Promise<DirRefusal | undefined> {
  let st
  try {
    st = await lstat(dir)
  } catch {
    return 'missing'
  }
  if (st.isSymbolicLink()) return 'symlink'
  if (!st.isDirectory()) return 'notDirectory'
  const me = uid()
  if (me !== undefined && st.uid !== me) return 'notOwner'
  if ((st.mode & 0o077) !== 0) return 'openToOthers'
  return undefined
}

/** Makes `dir` (0700) if it is not there, then checks it as the door needs it. */
async function ownPrivateDir(dir: string): Promise<DirRefusal | undefined> {
  await mkdir(dir, { mode: 0o700 }).catch(() => undefined)
  return privateDirRefusal(dir)
}

export interface DoorPlaceOptions {
  platform?: NodeJS.Platform
  /** `$XDG_RUNTIME_DIR` (by default the environment's). */
  runtimeDir?: string | undefined
  /** The temporary folder (by default the system's). */
  tmp?: string
}

/**
 * Where the app's door for this data folder goes this run, or why nowhere: every place it looked
 * at and why it refused it (another user's directory, one open to others, a path too long).
 */
export async function chooseDoorPlace(
  dataDir: string,
  opts: DoorPlaceOptions = {},
): Promise<{ ok: true; place: DoorPlace; refused: DoorRefusal[] } | { ok: false; refused: DoorRefusal[] }> {
  if ((opts.platform ?? process.platform) === 'win32')
    return { ok: true, place: { socket: `${PIPE_PREFIX}${randomBytes(16).toString('hex')}` }, refused: [] }
  const refused: DoorRefusal[] = []
  const fits = (socket: string) => Buffer.byteLength(socket) <= MAX_SOCKET_PATH
  const runtimeDir = 'runtimeDir' in opts ? opts.runtimeDir : process.env.XDG_RUNTIME_DIR
  if (runtimeDir) {
    // Several data folders may have a door there at once: each its own name.
    const dir = join(runtimeDir, 'hosting-admin')
    const socket = join(dir, `${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.sock`)
    const runtimeReason = await privateDirRefusal(runtimeDir)
    const reason = runtimeReason ?? (await ownPrivateDir(dir)) ?? (fits(socket) ? undefined : 'tooLong')
    if (!reason) return { ok: true, place: { socket }, refused }
    refused.push({ dir: runtimeReason ? runtimeDir : dir, reason })
  }
  const inData = join(dataDir, 'run')
  if (fits(join(inData, 'cli.sock'))) {
    const reason = await ownPrivateDir(inData)
    if (!reason) return { ok: true, place: { socket: join(inData, 'cli.sock') }, refused }
    refused.push({ dir: inData, reason })
  } else refused.push({ dir: inData, reason: 'tooLong' })
  // A new directory of a random name, made 0700 by mkdtemp itself: nobody can have made it first.
  const tmp = opts.tmp ?? tmpdir()
  if (!fits(join(tmp, 'hosting-admin-XXXXXX', 'cli.sock')))
    return { ok: false, refused: [...refused, { dir: tmp, reason: 'tooLong' }] }
  try {
    const made = await mkdtemp(join(tmp, 'hosting-admin-'))
    const reason = await privateDirRefusal(made)
    if (!reason) return { ok: true, place: { socket: join(made, 'cli.sock'), madeForRun: made }, refused }
    refused.push({ dir: made, reason })
  } catch {
    refused.push({ dir: tmp, reason: 'missing' })
  }
  return { ok: false, refused }
}

/**
 * Why the command must not connect to this advertised door (undefined: it may): on Unix a
 * socket of the user's in a directory only the user can enter; on Windows a door pipe's name.
 */
export async function doorRefusal(
  socket: string,
  platform: NodeJS.Platform = process.platform,
): Promise<DirRefusal | 'notSocket' | 'notDoorName' | undefined> {
  if (platform === 'win32')
    return socket.startsWith(PIPE_PREFIX) && /^[0-9a-f]{32}$/.test(socket.slice(PIPE_PREFIX.length))
      ? undefined
      : 'notDoorName'
  const dirReason = await privateDirRefusal(dirname(socket))
  if (dirReason) return dirReason
  let st
  try {
    st = await lstat(socket)
  } catch {
    return 'missing'
  }
  if (!st.isSocket()) return 'notSocket'
  const me = uid()
  if (me !== undefined && st.uid !== me) return 'notOwner'
  return basename(socket).endsWith('.sock') ? undefined : 'notSocket'
}
