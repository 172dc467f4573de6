/**
 * What the command calls, whether through the running app's door (app-door.ts) or through
 * services of its own (session.ts): one interface both give, in a module of its own so that
 * neither imports the other for it.
 */
import type { Call } from '@shared/ipc/contract'
import type { JobView } from '@shared/jobs'

export interface Session {
  /** The contract's typed client, as the window's bridge has it. */
  call: Call
  /**
   * Resolves with the job once it has ended (done, stopped, interrupted); through the app, rejects
   * with an outcome-unknown error when the app closes first.
   */
  ended(job: JobView): Promise<JobView>
  /** The calls go to the running app (it holds the data folder), not to services of the command's own. */
  viaApp: boolean
  close(): Promise<void>
}
