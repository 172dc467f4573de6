/**
 * The channels of the service's read operations, one each (`'domains.list'`) and one per paged
 * list read in full (`'all.domains.list'`), over the read path (reads/account-reads.ts). Each
 * payload is taken apart here: the account and call checked, the operation's own parameters
 * checked against the endpoint table.
 */
import { parseEndpointParams, type PagedEndpointName, type ReadEndpointName } from '@shared/endpoints/table'
import { parseWith, type Parsed } from '@shared/errors/field-issues'
import type { ApiParsed, ListAllChannel, ListAllParsed, ParsedPayloadOf, ResultOf } from '@shared/ipc/contract'
import { apiCallExtras, listAllExtras } from '@shared/ipc/payloads'
import type { AccountReads, ZoneReadName } from '../reads/account-reads'
import { defineChannel, isRecord, type ChannelHandler } from './channel'

type ReadChannel = ReadEndpointName | ListAllChannel
type ReadHandlers = { [C in ReadChannel]: ChannelHandler<ParsedPayloadOf<C>, ResultOf<C>> }

const notAnObject: Parsed<never> = {
  ok: false,
  issues: [{ path: '', code: 'field.wrongType', params: { expected: 'object' } }],
}

/** The call's own members and the operation's parameters, each checked; every issue of either said. */
function bothParsed<E, P>(extras: Parsed<E>, params: Parsed<P>): Parsed<{ extras: E; params: P }> {
  if (extras.ok && params.ok) return { ok: true, value: { extras: extras.value, params: params.value } }
  return { ok: false, issues: [...(extras.ok ? [] : extras.issues), ...(params.ok ? [] : params.issues)] }
}

/** An API payload taken apart: the account and job (checked here) and the operation's own parameters. */
function parseApiPayload<N extends ReadEndpointName>(name: N, raw: unknown): Parsed<ApiParsed<N>> {
  if (!isRecord(raw)) return notAnObject
  const { accountId, callId, ...rest } = raw
  const both = bothParsed(parseWith(apiCallExtras, { accountId, callId }), parseEndpointParams(name, rest))
  if (!both.ok) return both
  const { extras, params } = both.value
  return { ok: true, value: { accountId: extras.accountId, callId: extras.callId, params } }
}

export function parseListAllPayload<N extends PagedEndpointName>(name: N, raw: unknown): Parsed<ListAllParsed<N>> {
  if (!isRecord(raw)) return notAnObject
  // listAll sets the paging members itself; whatever the renderer sent for them is ignored.
  const { accountId, callId, limit: _limit, page: _page, ...rest } = raw
  const both = bothParsed(parseWith(listAllExtras, { accountId, callId }), parseEndpointParams(name, rest))
  if (!both.ok) return both
  const { limit: _l, page: _p, ...own } = both.value.params
  return { ok: true, value: { accountId: both.value.extras.accountId, callId: both.value.extras.callId, params: own } }
}

export function createReadHandlers(reads: AccountReads): ReadHandlers {
  const apiCall = <N extends ReadEndpointName>(name: N) =>
    defineChannel(
      (raw) => parseApiPayload(name, raw),
      (p) => reads.endpoint(name, p),
    )
  /** A zone read is kept for search and the next start. */
  const zoneCall = <N extends ZoneReadName>(name: N) =>
    defineChannel(
      (raw) => parseApiPayload(name, raw),
      (p) => reads.zone(name, p),
    )
  const listAll = <N extends PagedEndpointName>(name: N) =>
    defineChannel(
      (raw) => parseListAllPayload(name, raw),
      (p, sender) => reads.listAll(name, p, (pr) => sender.sendProgress(pr)),
    )
  return {
    // servers
    'servers.list': apiCall('servers.list'),
    'servers.get': apiCall('servers.get'),
    'servers.expiration.list': apiCall('servers.expiration.list'),
    'servers.expiration.get': apiCall('servers.expiration.get'),
    'servers.autorenew.list': apiCall('servers.autorenew.list'),
    'servers.autorenew.get': apiCall('servers.autorenew.get'),
    'servers.resource.get': apiCall('servers.resource.get'),

    // svcips
    'svcips.list': apiCall('svcips.list'),
    'svcips.get': apiCall('svcips.get'),
    'svcips.expiration.list': apiCall('svcips.expiration.list'),
    'svcips.expiration.get': apiCall('svcips.expiration.get'),

    // domains
    'domains.list': apiCall('domains.list'),
    'domains.get': apiCall('domains.get'),
    'domains.transfer.list': apiCall('domains.transfer.list'),
    'domains.transfer.listForDomain': apiCall('domains.transfer.listForDomain'),
    'domains.transfer.get': apiCall('domains.transfer.get'),
    'domains.expiration.list': apiCall('domains.expiration.list'),
    'domains.expiration.get': apiCall('domains.expiration.get'),
    'domains.autorenew.list': apiCall('domains.autorenew.list'),
    'domains.autorenew.get': apiCall('domains.autorenew.get'),
    'domains.transferlock.list': apiCall('domains.transferlock.list'),
    'domains.transferlock.get': apiCall('domains.transferlock.get'),
    'domains.whois.list': apiCall('domains.whois.list'),
    'domains.whois.get': apiCall('domains.whois.get'),
    'domains.nameserver.list': apiCall('domains.nameserver.list'),
    'domains.nameserver.get': apiCall('domains.nameserver.get'),
    'domains.dns.list': apiCall('domains.dns.list'),
    'domains.dns.get': zoneCall('domains.dns.get'),
    'domains.dynamicdns.list': apiCall('domains.dynamicdns.list'),
    'domains.dynamicdns.get': apiCall('domains.dynamicdns.get'),
    'domains.dnssec.list': apiCall('domains.dnssec.list'),
    'domains.dnssec.get': apiCall('domains.dnssec.get'),
    'domains.privatenameserver.list': apiCall('domains.privatenameserver.list'),
    'domains.privatenameserver.get': apiCall('domains.privatenameserver.get'),
    'domains.localtransfer.list': apiCall('domains.localtransfer.list'),
    'domains.localtransfer.get': apiCall('domains.localtransfer.get'),

    // domainsearch
    'domainsearch.check': apiCall('domainsearch.check'),

    // freedns
    'freedns.list': apiCall('freedns.list'),
    'freedns.get': zoneCall('freedns.get'),
    'freedns.localtransfer.list': apiCall('freedns.localtransfer.list'),
    'freedns.localtransfer.get': apiCall('freedns.localtransfer.get'),

    // logs
    'logs.list': apiCall('logs.list'),
    'logs.get': apiCall('logs.get'),

    // Every page of a paged list, with progress
    'all.servers.list': listAll('servers.list'),
    'all.servers.expiration.list': listAll('servers.expiration.list'),
    'all.servers.autorenew.list': listAll('servers.autorenew.list'),
    'all.svcips.list': listAll('svcips.list'),
    'all.domains.list': listAll('domains.list'),
    'all.domains.transfer.list': listAll('domains.transfer.list'),
    'all.domains.transfer.listForDomain': listAll('domains.transfer.listForDomain'),
    'all.domains.expiration.list': listAll('domains.expiration.list'),
    'all.domains.autorenew.list': listAll('domains.autorenew.list'),
    'all.domains.transferlock.list': listAll('domains.transferlock.list'),
    'all.domains.whois.list': listAll('domains.whois.list'),
    'all.domains.nameserver.list': listAll('domains.nameserver.list'),
    'all.domains.dns.list': listAll('domains.dns.list'),
    'all.domains.dynamicdns.list': listAll('domains.dynamicdns.list'),
    'all.domains.dnssec.list': listAll('domains.dnssec.list'),
    'all.domains.privatenameserver.list': listAll('domains.privatenameserver.list'),
    'all.domains.localtransfer.list': listAll('domains.localtransfer.list'),
    'all.freedns.list': listAll('freedns.list'),
    'all.freedns.localtransfer.list': listAll('freedns.localtransfer.list'),
    'all.logs.list': listAll('logs.list'),
  }
}
