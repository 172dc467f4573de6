/**
 * Calls through the app's real IPC router, as the window makes them: `call` answers the Result,
 * `ok` its value (and fails the test with the error's code otherwise).
 */
import type { AppServices } from '../../src/main/app-services'
import type { Sender } from '../../src/main/ipc/channel'
import type { Result } from '../../src/shared/ipc/contract'

/** The app's own origin: the only one the router takes calls from. */
export const APP = 'app://app'

/** A page of the app, as the router sees it; a test adds what else it listens for. */
export const appSender = (extra: Partial<Sender> = {}): Sender => ({ url: `${APP}/index.html`, key: 'test', sendProgress: () => undefined, sendJob: () => true, ...extra })

export function routerCalls(services: () => AppServices | undefined, sender: Sender = appSender()) {
  async function call<T>(channel: string, payload: unknown, s: AppServices | undefined = services()): Promise<Result<T>> {
    if (!s) throw new Error('the app services are not started')
    // What the channel answers is its contract's result type; the router returns it untyped.
    return (await s.router.dispatch(channel, payload, sender)) as Result<T>
  }
  async function ok<T>(channel: string, payload: unknown, s?: AppServices): Promise<T> {
    const r = await call<T>(channel, payload, s ?? services())
    if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
    return r.value
  }
  return { call, ok }
}
