/**
 * The names of every operation of the endpoint table, as plain data: no schema library,
 * so the preload (which only needs channel names) stays a few kilobytes. The table in
 * table.ts must declare exactly these names; a type check there fails otherwise.
 *
 * Each name is written once, with what it does to the service: the lists of paged reads and
 * of writes are taken from here, in this order, so a name cannot be in one list and
 * missing from the other.
 */

/**
 * `read`: a GET of one thing or of an unpaged list; `paged-read`: a GET of a paged list (`limit`
 * and `page` in the query, `paging` in the envelope); `write`: every other method, which changes
 * something at the service.
 */
type EndpointKind = 'read' | 'paged-read' | 'write'

const ENDPOINT_KIND = {
  'servers.list': 'paged-read',
  'servers.create': 'write',
  'servers.get': 'read',
  'servers.expiration.list': 'paged-read',
  'servers.expiration.get': 'read',
  'servers.expiration.extend': 'write',
  'servers.autorenew.list': 'paged-read',
  'servers.autorenew.get': 'read',
  'servers.autorenew.set': 'write',
  'servers.resource.get': 'read',
  'servers.resource.set': 'write',
  'svcips.list': 'paged-read',
  'svcips.register': 'write',
  'svcips.get': 'read',
  'svcips.expiration.list': 'read',
  'svcips.expiration.get': 'read',
  'svcips.expiration.extend': 'write',
  'svcips.setting.set': 'write',
  'svcips.cache.delete': 'write',
  'domains.list': 'paged-read',
  'domains.register': 'write',
  'domains.get': 'read',
  'domains.remove': 'write',
  'domains.transfer.list': 'paged-read',
  'domains.transfer.listForDomain': 'paged-read',
  'domains.transfer.request': 'write',
  'domains.transfer.get': 'read',
  'domains.transfer.cancel': 'write',
  'domains.expiration.list': 'paged-read',
  'domains.expiration.get': 'read',
  'domains.expiration.renew': 'write',
  'domains.autorenew.list': 'paged-read',
  'domains.autorenew.get': 'read',
  'domains.autorenew.set': 'write',
  'domains.transferlock.list': 'paged-read',
  'domains.transferlock.get': 'read',
  'domains.transferlock.set': 'write',
  'domains.whois.list': 'paged-read',
  'domains.whois.get': 'read',
  'domains.whois.set': 'write',
  'domains.nameserver.list': 'paged-read',
  'domains.nameserver.get': 'read',
  'domains.nameserver.set': 'write',
  'domains.dns.list': 'paged-read',
  'domains.dns.get': 'read',
  'domains.dns.set': 'write',
  'domains.dynamicdns.list': 'paged-read',
  'domains.dynamicdns.get': 'read',
  'domains.dynamicdns.set': 'write',
  'domains.dnssec.list': 'paged-read',
  'domains.dnssec.get': 'read',
  'domains.dnssec.set': 'write',
  'domains.privatenameserver.list': 'paged-read',
  'domains.privatenameserver.create': 'write',
  'domains.privatenameserver.get': 'read',
  'domains.privatenameserver.delete': 'write',
  'domains.localtransfer.list': 'paged-read',
  'domains.localtransfer.get': 'read',
  'domains.localtransfer.set': 'write',
  'domainsearch.check': 'read',
  'freedns.list': 'paged-read',
  'freedns.get': 'read',
  'freedns.register': 'write',
  'freedns.set': 'write',
  'freedns.remove': 'write',
  'freedns.localtransfer.list': 'paged-read',
  'freedns.localtransfer.get': 'read',
  'freedns.localtransfer.set': 'write',
  'logs.list': 'paged-read',
  'logs.get': 'read',
} as const satisfies Record<string, EndpointKind>

type Kinds = typeof ENDPOINT_KIND
export type EndpointName = keyof Kinds
type NameOfKind<K extends EndpointKind> = { [N in EndpointName]: Kinds[N] extends K ? N : never }[EndpointName]

const isEndpointName = (name: string): name is EndpointName => Object.hasOwn(ENDPOINT_KIND, name)
export const ENDPOINT_NAMES: readonly EndpointName[] = Object.keys(ENDPOINT_KIND).filter(isEndpointName)
const namesOfKind = <K extends EndpointKind>(kind: K): readonly NameOfKind<K>[] =>
  ENDPOINT_NAMES.filter((n): n is NameOfKind<K> => ENDPOINT_KIND[n] === kind)

/** The paged lists (`limit` and `page` in the query, `paging` in the envelope). */
export const PAGED_ENDPOINT_NAMES = namesOfKind('paged-read')
export type PagedEndpointName = NameOfKind<'paged-read'>

/**
 * The operations that change something at the service (every method but GET). They are never
 * called directly from the renderer: each one runs as a job in the main process, frozen when
 * the user confirms it (src/main/jobs).
 */
export const WRITE_ENDPOINT_NAMES = namesOfKind('write')
export type WriteEndpointName = NameOfKind<'write'>
export type ReadEndpointName = Exclude<EndpointName, WriteEndpointName>

export const isWriteEndpoint = (name: string): name is WriteEndpointName =>
  isEndpointName(name) && ENDPOINT_KIND[name] === 'write'
export const READ_ENDPOINT_NAMES = ENDPOINT_NAMES.filter((n): n is ReadEndpointName => !isWriteEndpoint(n))
