/**
 * `hosting-admin accounts` without the app's services (issue 52 point 7: a listing starts within
 * 3× a bare Node): when no app holds the data folder, the command takes the folder's lock as any
 * command does, reads the accounts file as the app reads it (profile-store.ts) and lists it as
 * the app's `accounts.list` does (the demo first, then the accounts, the active one marked). No
 * store, journal, keychain or HTTP client is opened. While the app runs, its door answers instead.
 */
import { join } from 'node:path'
import { DEMO_ACCOUNT_NAME, DEMO_MARKS } from '@shared/accounts'
import { DEMO_ACCOUNT_ID } from '@shared/service/constants'
import { activeIdIn, ProfileStore } from '../main/accounts/profile-store'
import { acquireDataLock, currentHolder } from '../main/base/data-lock'

/** One account as `accounts` prints it. */
export interface AccountRow {
  id: string
  name: string
  environment: string
  readOnly: boolean
  active: boolean
}

/** The rows, or undefined when the app's services must answer (the app holds the folder, or the lock cannot be had). */
export async function accountRowsQuick(dataDir: string): Promise<AccountRow[] | undefined> {
  const holder = await currentHolder(dataDir)
  if (holder?.who === 'app' && holder.pid !== process.pid) return undefined
  const locked = await acquireDataLock(dataDir, 'cli')
  if (!locked.ok) return undefined
  try {
    const profiles = new ProfileStore(join(dataDir, 'accounts.json'))
    // A file that cannot be read at all is the session's to word (startup.accountsFile).
    const file = await profiles.load().catch(() => undefined)
    if (!file) return undefined
    const active = activeIdIn(file)
    return [
      {
        id: DEMO_ACCOUNT_ID,
        name: DEMO_ACCOUNT_NAME,
        environment: DEMO_MARKS.environment,
        readOnly: DEMO_MARKS.readOnly,
        active: active === DEMO_ACCOUNT_ID,
      },
      ...file.accounts.map((a) => ({
        id: a.id,
        name: a.name,
        environment: a.environment,
        readOnly: a.readOnly,
        active: a.id === active,
      })),
    ]
  } finally {
    await locked.lock.release()
  }
}
