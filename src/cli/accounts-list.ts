/**
 * `hosting-admin accounts` without the app's services (issue 52 point 7: a listing starts within
 * 3× a bare Node): when no app holds the data folder, the command reads the accounts file as the
 * app reads it (profile-store.ts) and lists it as the app's `accounts.list` does (the demo first,
 * then the accounts, the active one marked). No store, journal, keychain or HTTP client is opened,
 * and no lock is taken: a read needs none, since every writer replaces the file whole (a rename),
 * so the listing sees it as it was before or after a change, never half of one. SQLite (the lock)
 * is not loaded, nor zod when there is no accounts file yet. While the app runs, its door answers
 * instead; a file the app would move or copy aside (unreadable, an account that does not read)
 * is left to the app's services, which do that under the lock and say so.
 */
import { readFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { DEMO_ACCOUNT_NAME, DEMO_MARKS } from '@shared/accounts/demo'
import { DEMO_ACCOUNT_ID } from '@shared/service/constants'
import { codeOf, holderOf, lockFileOf, runs } from '../main/base/lock-holder'

/** One account as `accounts` prints it. */
export interface AccountRow {
  id: string
  name: string
  environment: string
  readOnly: boolean
  active: boolean
}

type Listed = { active: string; accounts: readonly Omit<AccountRow, 'active'>[] }

/**
 * The file's accounts and the active one; the demo alone, active, when there is no file yet;
 * undefined when the app's services must read it.
 */
async function accountsFileOf(dataDir: string): Promise<Listed | undefined> {
  let text: string
  try {
    text = await readFile(join(dataDir, 'accounts.json'), 'utf8')
  } catch (err) {
    // A file that cannot be read at all is the session's to word (startup.accountsFile).
    return codeOf(err) === 'ENOENT' ? { active: DEMO_ACCOUNT_ID, accounts: [] } : undefined
  }
  const { activeIdIn, cleanAccountsIn } = await import('../main/accounts/profile-store')
  const file = cleanAccountsIn(text)
  return file && { active: activeIdIn(file), accounts: file.accounts }
}

/** The rows, or undefined when the app's services must answer (the app holds the folder, or the file needs them). */
export async function accountRowsQuick(dataDir: string): Promise<AccountRow[] | undefined> {
  // The app's own holder file says it runs (data-lock.ts): its door answers. A holder file of
  // another machine's app, or of a process id now reused, is the session's to judge with the OS lock.
  const holder = await holderOf(lockFileOf(dataDir))
  if (holder?.who === 'app' && (holder.host !== hostname() || runs(holder.pid))) return undefined
  const listed = await accountsFileOf(dataDir)
  if (!listed) return undefined
  const demo = {
    id: DEMO_ACCOUNT_ID,
    name: DEMO_ACCOUNT_NAME,
    environment: DEMO_MARKS.environment,
    readOnly: DEMO_MARKS.readOnly,
  }
  return [demo, ...listed.accounts].map(({ id, name, environment, readOnly }) => ({
    id,
    name,
    environment,
    readOnly,
    active: id === listed.active,
  }))
}
