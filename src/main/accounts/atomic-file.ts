import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * Replaces a file's content so that a crash leaves either the old or the new
 * content, never a mix: write a temp file beside it, fsync, rename over, fsync the folder.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    const fh = await open(tmp, 'w', 0o600)
    try {
      await fh.writeFile(data, 'utf8')
      await fh.sync()
    } finally {
      await fh.close()
    }
    await rename(tmp, path)
  } catch (err) {
    // A full disk cuts the write short: the old file stays, and no half copy is left beside it.
    await rm(tmp, { force: true })
    throw err
  }
  // The rename itself is durable only once the folder is synced (not possible on every platform).
  try {
    const dir = await open(dirname(path), 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
  } catch {
    // Windows cannot open a folder for fsync; the rename is still atomic there.
  }
}
