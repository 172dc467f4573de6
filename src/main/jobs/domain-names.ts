/**
 * A domain's canonical name: case-folded, without a final dot, and a numeric id turned into the
 * name the account's stored lists know it by (so `Example.COM`, `example.com` and its id are one
 * target). An id the store cannot name is refused by the runner rather than guessed.
 */
import type { PortfolioStoreAsync } from '../store/store-async'

export type DomainKind = 'domain' | 'freedns'

export type DomainNameOf = (kind: DomainKind, id: number) => Promise<string | undefined>

const DOMAIN_LISTS = ['domains.list', 'domains.expiration.list', 'domains.autorenew.list'] as const

/** Looks ids up in the stored lists, read only when an id is asked for, and once per lookup object. */
export function storedDomainNames(
  store: Pick<PortfolioStoreAsync, 'getList'>,
  accountId: string,
  onError?: (err: unknown) => void,
): DomainNameOf {
  const read = new Map<DomainKind, Promise<Map<number, string>>>()
  const namesOf = async (kind: DomainKind): Promise<Map<number, string>> => {
    const names = new Map<number, string>()
    try {
      if (kind === 'freedns')
        for (const f of (await store.getList(accountId, 'freedns.list', {}))?.items ?? [])
          names.set(f.domainid, f.domainname)
      else
        for (const list of DOMAIN_LISTS) {
          for (const d of (await store.getList(accountId, list, {}))?.items ?? [])
            if (!names.has(d.domainid)) names.set(d.domainid, d.domainname)
        }
    } catch (err) {
      onError?.(err)
    }
    return names
  }
  return async (kind, id) => {
    let names = read.get(kind)
    if (!names) read.set(kind, (names = namesOf(kind)))
    return (await names).get(id)
  }
}

export const canonicalDomain = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '')
