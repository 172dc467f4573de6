/**
 * Server names to ids from the portfolio store, for the job runner's targets (targets.ts): the
 * server lists the app has read, of the account and kind. Asked once per item when a job is
 * prepared, and a server list is short, so reading it then costs little.
 */
import { PortfolioStore } from '../store/types'
import type { ServerKind } from '../../shared/constants'
import type { ServerIdOf } from './targets'

/** The lists that carry both webid and webname; the full list first, as the most often read. */
const SERVER_LISTS = ['servers.list', 'servers.expiration.list', 'servers.autorenew.list'] as const

/**
 * A store that cannot be read says nothing (onError hears why): the name then stays as given,
 * and the write still goes, held only against writes that named the server the same way.
 */
export function storedServerIds(store: Pick<PortfolioStore, 'getList'>, accountId: string, onError?: (err: unknown) => void): ServerIdOf {
  return (kind: ServerKind, webname: string) => {
    try {
      for (const list of SERVER_LISTS) {
        const found = store.getList(accountId, list, { kind })?.items.find((s) => s.webname === webname)
        if (found) return found.webid
      }
    } catch (err) {
      onError?.(err)
    }
    return undefined
  }
}
