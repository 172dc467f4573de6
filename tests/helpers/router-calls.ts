/**
 * Calls through the app's real IPC router, as the window makes them, typed by the contract:
 * `call` answers the channel's Result, `ok` its value (and fails the test with the error's code
 * otherwise). `send` is the untyped transport, for what the contract refuses (a payload main
 * must reject, a name it does not know).
 */
import type { AppServices } from '../../src/main/app/app-services'
import type { Sender } from '../../src/main/ipc/channel'
import type { Call, ChannelName, PayloadOf, Result, ResultOf } from '@shared/ipc/contract'

/** The app's own origin: the only one the router takes calls from. */
export const APP = 'app://app'

/** A page of the app, as the router sees it; a test adds what else it listens for. */
export const appSender = (extra: Partial<Sender> = {}): Sender => ({
  url: `${APP}/index.html`,
  key: 'test',
  sendProgress: () => undefined,
  sendJob: () => true,
  ...extra,
})

export function routerCalls(services: () => AppServices | undefined, sender: Sender = appSender()) {
  const call: Call = (channel, payload, onProgress) => {
    const s = services()
    if (!s) throw new Error('the app services are not started')
    return s.router.client(sender)(channel, payload, onProgress)
  }
  async function ok<C extends ChannelName>(channel: C, payload: PayloadOf<C>): Promise<ResultOf<C>> {
    const r = await call(channel, payload)
    if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`)
    return r.value
  }
  function send(channel: string, payload: unknown): Promise<Result<unknown>> {
    const s = services()
    if (!s) throw new Error('the app services are not started')
    return s.router.dispatch(channel, payload, sender)
  }
  return { call, ok, send }
}
