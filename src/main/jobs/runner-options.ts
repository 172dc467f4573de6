/**
 * What the job runner (runner.ts) is given: the accounts it writes for, its ledger, the history it
 * tells, and how it tells the windows. The composition root (app/app-services.ts) makes them.
 */
import type { WriteSafety } from '@shared/accounts/write-safety'
import type { JobView } from '@shared/jobs'
import type { ApiClient } from '../http'
import type { DomainNameOf } from './domain-names'
import type { BodyMac } from './ledger/body-mac'
import type { WriteLedger } from './ledger/write-ledger'
import type { ServerIdOf } from './targets'
import type { WriteObserver } from './write-history'

export interface JobAccounts {
  client(accountId: string): Promise<ApiClient>
  /** The account's name as the user gave it, frozen into the job ('' for the demo). */
  nameOf(accountId: string): string
  /** Whether the user made the account read-only: its jobs are refused before anything is read or sent, and stop before their next send. */
  readOnly(accountId: string): boolean
  /** Whether the account is still set up: a job of one removed meanwhile sends nothing more. */
  exists?(accountId: string): boolean
  /**
   * The account's write safety level (shared/accounts/write-safety.ts): 'confirm', every write waits for the
   * user's confirmation; 'name', the confirmation names the account in full. Read again at start.
   */
  writeSafety?(accountId: string): WriteSafety
  /** The number the service writes for an auto-renewal setting that is on, in this account's data (undefined: none seen). */
  autorenewOnValue?(accountId: string): Promise<number | undefined>
}

export interface JobRunnerOptions {
  accounts: JobAccounts
  /** The journal, the per-target holds and the record of ended sends (ledger/write-ledger.ts). */
  ledger: WriteLedger
  /** Called when a job changed; the caller passes it on to the windows. */
  onChange?: (job: JobView) => void
  /** When the log is read after an unknown outcome (the log may lag behind the request). */
  logCheckDelaysMs?: number[]
  /**
   * How long a send's end waits for its worker's next journal step to carry it (carried-end.ts)
   * before it is written alone; a test that checks what rides together sets it past its run.
   */
  endCarryMs?: number
  /** How long a prepared job waits for its confirmation. */
  preparedForMs?: number
  now?: () => Date
  /** History: told before each item is sent (it may refuse a zone save) and when each ends. */
  observer?: WriteObserver
  onObserverError?: (err: unknown) => void
  /** A journal line that could not be written (logged by the owner; the job has stopped). */
  onJournalError?: (err: unknown) => void
  /**
   * A server's id from its name, in an account, where the app knows it: a server named by id
   * and by name is then one target (targets.ts). Without it, or when it cannot say, a name is
   * its own target.
   */
  serverIdsOf?: (accountId: string) => Promise<ServerIdOf>
  /** A domain's name from its numeric id, in an account, where the app knows it (domain-names.ts). */
  domainNamesOf?: (accountId: string) => DomainNameOf
  /** How a sent body is journaled and known again in the log (body-mac.ts); by default under a key of this process only. */
  bodyMac?: BodyMac
  /**
   * Whether the unknown outcomes of jobs this process did not start (read from the journal at
   * start: a quit's, another process's, a colleague's) are settled from the service's log here.
   * The app does (the default); a short-lived command does not: it would settle colleagues' jobs
   * at each start, and end before most of its looks. `hosting-admin team settle` does it when asked.
   */
  settlesOthers?: boolean
}
