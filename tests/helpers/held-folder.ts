/**
 * A journal's folder held as the app holds it (data-lock.ts): a journal is written only by the
 * holder of its folder, so a test of a runner on its own takes the folder's lock first.
 */
import { dirname } from 'node:path'
import { acquireDataLock, type DataLock } from '../../src/main/base/data-lock'

export async function holdFolderOf(journalFile: string): Promise<DataLock> {
  const taken = await acquireDataLock(dirname(journalFile), 'app', { waitForCliMs: 0 })
  if (!taken.ok) throw new Error(`the folder of ${journalFile} is held by process ${taken.heldBy.pid}`)
  return taken.lock
}
