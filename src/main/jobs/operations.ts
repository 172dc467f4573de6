/**
 * What each write means beyond the wire, in one record typed over every write of the endpoint
 * table: an operation left out, or a fact misnamed, fails the type check instead of being
 * skipped at run time (a write whose target was not listed used to be "the account", and blocked
 * every other write of the account as busy).
 *
 * - target: the parameters that name what it acts on (at most one write per account, operation
 *   and target is in flight; an unknown outcome holds that target);
 * - subject and aspect: whose history it is and what it changes (history, drift);
 * - before: the stored list that holds the aspect's value before it (the members that make it are
 *   that list's watched ones: `watch` in src/main/store/lists.ts);
 * - zone: a zone save (snapshotted before, guarded by its plan, kept after);
 * - readBack: the read that gives back what the service kept, where its answer cannot show it;
 * - serviceKept: how what the service kept is compared with what was sent (shared/service/service-kept.ts);
 * - autorenew: settings sent as the number the service uses for "on";
 * - effect: what its confirmation reads first (an expiration date now and after);
 * - precondition: what it was confirmed against, checked under its hold right before it is sent
 *   (preconditions.ts): 'expiry', the expiry date the confirmation showed and no renewal or
 *   extension of the target since; 'setting', 'owner', 'absent', 'present', no send of the same
 *   operation to the target since (a setting changed, an owner changed, a thing created, a thing
 *   removed); 'zone', the records the save was planned from, read again (its guard).
 * The words of each (its name in a confirmation or a result) are `operation.<name>` in the
 * renderer's catalogue, which the catalogue's type check requires for every write.
 */
import type { EndpointParams, ReadEndpointName, WriteEndpointName } from '@shared/endpoints/table'
import type { HistoryAspect, SubjectKind } from '@shared/portfolio/history'
import type { StoredListName, ZoneKind } from '@shared/portfolio'
import { serviceKeptFindings, type ServiceKeptComparison, type ServiceKeptFinding } from '@shared/service/service-kept'

export type Effect = 'renewal' | 'serverExtension' | 'svcipExtension' | 'registration'

/** What a write was confirmed against (see the record's comment above, and preconditions.ts). */
export type PreconditionKind = 'expiry' | 'setting' | 'owner' | 'absent' | 'present' | 'zone'

export interface WriteFacts<N extends WriteEndpointName> {
  target: readonly (keyof EndpointParams<N> & string)[]
  subject: SubjectKind
  aspect: HistoryAspect
  before?: StoredListName
  zone?: ZoneKind
  readBack?: Extract<
    ReadEndpointName,
    'domains.dns.get' | 'freedns.get' | 'domains.nameserver.get' | 'domains.whois.get'
  >
  serviceKept: ServiceKeptComparison
  autorenew?: readonly (keyof EndpointParams<N> & string)[]
  effect?: Effect
  precondition: PreconditionKind
}

// The targets and subjects the writes share, and the plain write: a change whose history is just
// "a write" and whose answer is not compared with what was sent.
const SERVER = { target: ['kind', 'webid'], subject: 'server' } as const
const SVCIP = { target: ['vipid'], subject: 'svcip' } as const
const DOMAIN = { target: ['domain'], subject: 'domain' } as const
const FREEDNS = { target: ['domain'], subject: 'freedns' } as const
const NEW_NAME = { target: ['sld', 'tld'] } as const
const PRIVATE_NAMESERVER = { target: ['domain', 'hostname'], subject: 'domain' } as const
const PLAIN_WRITE = { aspect: 'write', serviceKept: 'none' } as const

export const WRITE_FACTS: { readonly [N in WriteEndpointName]: WriteFacts<N> } = {
  'servers.create': { target: ['kind', 'webname'], subject: 'server', ...PLAIN_WRITE, precondition: 'absent' },
  'servers.expiration.extend': {
    ...SERVER,
    aspect: 'expiration',
    serviceKept: 'none',
    effect: 'serverExtension',
    precondition: 'expiry',
  },
  'servers.autorenew.set': {
    ...SERVER,
    aspect: 'autorenew',
    serviceKept: 'serverAutorenew',
    autorenew: ['autorenew_all', 'autorenew_server'],
    precondition: 'setting',
  },
  'servers.resource.set': { ...SERVER, ...PLAIN_WRITE, precondition: 'setting' },
  'svcips.register': { target: ['servers'], subject: 'svcip', ...PLAIN_WRITE, precondition: 'absent' },
  'svcips.expiration.extend': {
    ...SVCIP,
    aspect: 'expiration',
    serviceKept: 'none',
    effect: 'svcipExtension',
    precondition: 'expiry',
  },
  'svcips.setting.set': { ...SVCIP, ...PLAIN_WRITE, precondition: 'setting' },
  'svcips.cache.delete': { ...SVCIP, ...PLAIN_WRITE, precondition: 'present' },
  'domains.register': {
    ...NEW_NAME,
    subject: 'domain',
    ...PLAIN_WRITE,
    effect: 'registration',
    precondition: 'absent',
  },
  'domains.remove': { ...DOMAIN, ...PLAIN_WRITE, precondition: 'present' },
  'domains.transfer.request': { ...DOMAIN, ...PLAIN_WRITE, precondition: 'absent' },
  'domains.transfer.cancel': {
    target: ['domain', 'transferorderid'],
    subject: 'domain',
    ...PLAIN_WRITE,
    precondition: 'present',
  },
  'domains.expiration.renew': {
    ...DOMAIN,
    aspect: 'expiration',
    serviceKept: 'none',
    effect: 'renewal',
    precondition: 'expiry',
  },
  'domains.autorenew.set': {
    ...DOMAIN,
    aspect: 'autorenew',
    before: 'domains.autorenew.list',
    serviceKept: 'domainAutorenew',
    autorenew: ['autorenew_all', 'autorenew_domain'],
    precondition: 'setting',
  },
  'domains.transferlock.set': {
    ...DOMAIN,
    aspect: 'transferlock',
    before: 'domains.transferlock.list',
    serviceKept: 'transferLock',
    precondition: 'setting',
  },
  'domains.whois.set': {
    ...DOMAIN,
    aspect: 'whois',
    before: 'domains.whois.list',
    readBack: 'domains.whois.get',
    serviceKept: 'whois',
    precondition: 'setting',
  },
  'domains.nameserver.set': {
    ...DOMAIN,
    aspect: 'nameservers',
    before: 'domains.nameserver.list',
    readBack: 'domains.nameserver.get',
    serviceKept: 'nameservers',
    precondition: 'setting',
  },
  'domains.dns.set': {
    ...DOMAIN,
    aspect: 'dns',
    zone: 'dns',
    readBack: 'domains.dns.get',
    serviceKept: 'dnsZone',
    precondition: 'zone',
  },
  'domains.dynamicdns.set': { ...DOMAIN, aspect: 'dynamicdns', serviceKept: 'dynamicDns', precondition: 'setting' },
  'domains.dnssec.set': { ...DOMAIN, aspect: 'dnssec', serviceKept: 'dnssec', precondition: 'setting' },
  'domains.privatenameserver.create': { ...PRIVATE_NAMESERVER, ...PLAIN_WRITE, precondition: 'absent' },
  'domains.privatenameserver.delete': { ...PRIVATE_NAMESERVER, ...PLAIN_WRITE, precondition: 'present' },
  'domains.localtransfer.set': { ...DOMAIN, ...PLAIN_WRITE, precondition: 'owner' },
  'freedns.register': { ...NEW_NAME, subject: 'freedns', ...PLAIN_WRITE, precondition: 'absent' },
  'freedns.set': {
    ...FREEDNS,
    aspect: 'dns',
    zone: 'freedns',
    readBack: 'freedns.get',
    serviceKept: 'freeDnsZone',
    precondition: 'zone',
  },
  'freedns.remove': { ...FREEDNS, ...PLAIN_WRITE, precondition: 'present' },
  'freedns.localtransfer.set': { ...FREEDNS, ...PLAIN_WRITE, precondition: 'owner' },
}

/** The facts of one operation (the record's entry, typed for any write). */
export function factsOf(operation: WriteEndpointName): WriteFacts<WriteEndpointName> {
  const facts: WriteFacts<WriteEndpointName> = WRITE_FACTS[operation]
  return facts
}

/** What the service kept against what was sent, compared as the operation's facts say. */
export const serviceKeptFindingsOf = (
  operation: WriteEndpointName,
  sent: unknown,
  kept: unknown,
): ServiceKeptFinding[] => serviceKeptFindings(factsOf(operation).serviceKept, sent, kept)
