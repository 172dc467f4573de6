/**
 * Another process on a bench's key: raw requests with the sandbox's full key, outside any client
 * or pacer, taking its share of the key's window as a second command or app on the same key does.
 */
import type { RemoteSandbox } from './remote-sandbox'

const send = (sb: RemoteSandbox) =>
  fetch(`${sb.url}/domains?page=1&limit=1`, {
    headers: { authorization: `Bearer ${sb.keys.full}`, accept: 'application/json' },
  }).then((r) => r.status)

/** `count` requests, one after another, each of which must be answered. */
export async function sendAnswered(sb: RemoteSandbox, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const status = await send(sb)
    if (status !== 200) throw new Error(`another process's request ${i + 1} of ${count} was answered ${status}`)
  }
}

/** The one request over the key's limit, which must be refused: the key's block begins with it; when it was answered. */
export async function sendRefused(sb: RemoteSandbox): Promise<number> {
  const status = await send(sb)
  if (status !== 429) throw new Error(`the request over the limit was answered ${status}`)
  return performance.now()
}
