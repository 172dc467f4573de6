/**
 * What the command calls, whether through the running app's door (app-door.ts) or through
 * services of its own (session.ts): one interface both give, in a module of its own so that
 * neither imports the other for it.
 */
import type { EndpointResult, PagedEndpointName, PagedItem, ReadEndpointName } from '../shared/endpoints/table'
import type { ApiPayload, ListAllPayload, LocalChannel, LocalResults, PayloadOf, Result } from '../shared/ipc/contract'
import type { JobView } from '../shared/jobs'

export interface Session {
  call<N extends ReadEndpointName>(channel: N, payload: ApiPayload<N>): Promise<Result<EndpointResult<N>>>
  call<C extends LocalChannel>(channel: C, payload: PayloadOf<C>): Promise<Result<LocalResults[C]>>
  call<N extends PagedEndpointName>(channel: `all.${N}`, payload: ListAllPayload<N>): Promise<Result<PagedItem<N>[]>>
  /** A dynamic DNS update sent by the command (not an API write, so no job), in the app's history. */
  recordDdns(entry: { accountId: string; domain: string; host: string; ip: string; ok: boolean }): Promise<void>
  /**
   * Resolves with the job once it has ended (done, stopped, interrupted); through the app, rejects
   * with an outcome-unknown error when the app closes first.
   */
  ended(job: JobView): Promise<JobView>
  /** The calls go to the running app (it holds the data folder), not to services of the command's own. */
  viaApp: boolean
  close(): Promise<void>
}
