/**
 * A domain named by its numeric id, as its name, from the portfolio store: the lists of the
 * account the app has read. A write's target is the domain's name, so that the name and the id
 * cannot be two targets for one domain (one job renewing it twice, or a second send slipping past
 * an unknown outcome); an id the store cannot name is refused.
 */
import type { PortfolioStore } from '../store/types'

/** Which list names a domain of the kind a write acts on. */
export type DomainKind = 'domain' | 'freedns'

export type DomainNameOf = (kind: DomainKind, id: number) => string | undefined

/** The lists that carry both domainid and domainname, the full list first. */
const DOMAIN_LISTS = ['domains.list', 'domains.expiration.list', 'domains.autorenew.list'] as const

export function storedDomainNames(store: Pick<PortfolioStore, 'getList'>, accountId: string, onError?: (err: unknown) => void): DomainNameOf {
  return (kind, id) => {
    try {
      if (kind === 'freedns') return store.getList(accountId, 'freedns.list', {})?.items.find((f) => f.domainid === id)?.domainname
      for (const list of DOMAIN_LISTS) {
        const found = store.getList(accountId, list, {})?.items.find((d) => d.domainid === id)
        if (found) return found.domainname
      }
    } catch (err) {
      onError?.(err)
    }
    return undefined
  }
}

/** A domain name as one target: without case and without the root's final dot. */
export const canonicalDomain = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '')
