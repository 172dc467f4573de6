/**
 * A server's id from its name, as the stored server lists of an account know it: a server named
 * by id in one write and by name in another is then one target (targets.ts).
 */
import type { PortfolioStoreAsync } from '../store/store-async'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import type { ServerIdOf } from './targets'

const SERVER_LISTS = ['servers.list', 'servers.expiration.list', 'servers.autorenew.list'] as const

/** Reads the account's stored server lists once (they are short) into a lookup; a store that cannot answer knows no name. */
export async function storedServerIds(
  store: Pick<PortfolioStoreAsync, 'getList'>,
  accountId: string,
  onError?: (err: unknown) => void,
): Promise<ServerIdOf> {
  const ids = new Map<string, string>()
  const keyOf = (kind: ServerKind, webname: string) => `${kind}\u0000${webname}`
  try {
    for (const kind of SERVER_KINDS) {
      for (const list of SERVER_LISTS) {
        for (const s of (await store.getList(accountId, list, { kind }))?.items ?? [])
          if (!ids.has(keyOf(kind, s.webname))) ids.set(keyOf(kind, s.webname), s.webid)
      }
    }
  } catch (err) {
    onError?.(err)
  }
  return (kind, webname) => ids.get(keyOf(kind, webname))
}
