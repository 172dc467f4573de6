/**
 * One handler per IPC channel, each named as the channel is: `'domains.dns.get'` here is the
 * renderer's `api.domains.dns.get(...)` and the endpoint table's `'domains.dns.get'`, so a
 * call, its handler and its endpoint are found from each other by a search for the name.
 * The type below makes a missing or misspelled channel a compile error.
 */
import { parseEndpointParams, type EndpointName, type EndpointResult, type PagedEndpointName, type PagedItem } from '../../shared/endpoints/table'
import { parseWith, type Parsed } from '../../shared/field-issues'
import type { ChannelName } from '../../shared/ipc/channels'
import type { ApiParsed, ListAllParsed, ParsedPayloadOf, ResultOf } from '../../shared/ipc/contract'
import { apiCallExtras, listAllExtras, localPayloads } from '../../shared/ipc/payloads'
import type { AccountService } from '../accounts/account-service'
import { defineChannel, isRecord, type ChannelHandler } from './channel'
import type { RunningCalls } from './running-calls'

export type ChannelHandlers = { [C in ChannelName]: ChannelHandler<ParsedPayloadOf<C>, ResultOf<C>> }

export interface HandlerDeps {
  accounts: AccountService
  calls: RunningCalls
}

const notAnObject: Parsed<never> = { ok: false, issues: [{ path: '', code: 'field.wrongType', params: { expected: 'object' } }] }

/** An API payload taken apart: the account and job (checked here) and the operation's own parameters. */
function parseApiPayload<N extends EndpointName>(name: N, raw: unknown): Parsed<ApiParsed<N>> {
  if (!isRecord(raw)) return notAnObject
  const { accountId, jobId, ...rest } = raw
  const extras = parseWith(apiCallExtras, { accountId, jobId })
  const params = parseEndpointParams(name, rest)
  if (!extras.ok || !params.ok) return { ok: false, issues: [...(extras.ok ? [] : extras.issues), ...(params.ok ? [] : params.issues)] }
  return { ok: true, value: { accountId: extras.value.accountId, jobId: extras.value.jobId, params: params.value } }
}

function parseListAllPayload<N extends PagedEndpointName>(name: N, raw: unknown): Parsed<ListAllParsed<N>> {
  if (!isRecord(raw)) return notAnObject
  // listAll sets the paging members itself; whatever the renderer sent for them is ignored.
  const { accountId, jobId, limit: _limit, page: _page, ...rest } = raw
  const extras = parseWith(listAllExtras, { accountId, jobId })
  const params = parseEndpointParams(name, rest)
  if (!extras.ok || !params.ok) return { ok: false, issues: [...(extras.ok ? [] : extras.issues), ...(params.ok ? [] : params.issues)] }
  const { limit: _l, page: _p, ...own } = params.value
  return { ok: true, value: { accountId: extras.value.accountId, jobId: extras.value.jobId, params: own } }
}

export function createChannelHandlers({ accounts, calls }: HandlerDeps): ChannelHandlers {
  const apiCall = <N extends EndpointName>(name: N): ChannelHandler<ApiParsed<N>, EndpointResult<N>> =>
    defineChannel(
      (raw) => parseApiPayload(name, raw),
      (p) => calls.run(p.jobId, async (signal) => (await accounts.client(p.accountId)).callParsed(name, p.params, { signal })),
    )

  const listAll = <N extends PagedEndpointName>(name: N): ChannelHandler<ListAllParsed<N>, PagedItem<N>[]> =>
    defineChannel(
      (raw) => parseListAllPayload(name, raw),
      (p, sender) =>
        calls.run(p.jobId, async (signal) =>
          (await accounts.client(p.accountId)).listAllParsed(name, p.params, {
            signal,
            onProgress: (pr) => sender.sendProgress({ jobId: p.jobId, loadedItems: pr.loadedItems, expectedItems: pr.expectedItems }),
          }),
        ),
    )

  const local = localPayloads
  return {
    // Accounts and jobs
    'accounts.list': defineChannel((raw) => parseWith(local['accounts.list'], raw), () => accounts.list()),
    'accounts.create': defineChannel(
      (raw) => parseWith(local['accounts.create'], raw),
      (p) => accounts.create(p.fields, p.apiKey, p.storage),
    ),
    'accounts.update': defineChannel((raw) => parseWith(local['accounts.update'], raw), (p) => accounts.update(p.id, p.fields)),
    'accounts.remove': defineChannel(
      (raw) => parseWith(local['accounts.remove'], raw),
      async (p) => {
        await accounts.remove(p.id)
        return null
      },
    ),
    'accounts.setActive': defineChannel(
      (raw) => parseWith(local['accounts.setActive'], raw),
      async (p) => {
        await accounts.setActive(p.id)
        return null
      },
    ),
    'accounts.replaceKey': defineChannel(
      (raw) => parseWith(local['accounts.replaceKey'], raw),
      async (p) => {
        await accounts.replaceKey(p.id, p.apiKey, p.storage)
        return null
      },
    ),
    'accounts.testConnection': defineChannel((raw) => parseWith(local['accounts.testConnection'], raw), (p) => accounts.testConnection(p.id)),
    'accounts.keychainStatus': defineChannel((raw) => parseWith(local['accounts.keychainStatus'], raw), () => accounts.keychainStatus()),
    'jobs.cancel': defineChannel(
      (raw) => parseWith(local['jobs.cancel'], raw),
      async (p) => {
        calls.cancel(p.jobId)
        return null
      },
    ),

    // servers
    'servers.list': apiCall('servers.list'),
    'servers.create': apiCall('servers.create'),
    'servers.get': apiCall('servers.get'),
    'servers.expiration.list': apiCall('servers.expiration.list'),
    'servers.expiration.get': apiCall('servers.expiration.get'),
    'servers.expiration.extend': apiCall('servers.expiration.extend'),
    'servers.autorenew.list': apiCall('servers.autorenew.list'),
    'servers.autorenew.get': apiCall('servers.autorenew.get'),
    'servers.autorenew.set': apiCall('servers.autorenew.set'),
    'servers.resource.get': apiCall('servers.resource.get'),
    'servers.resource.set': apiCall('servers.resource.set'),

    // svcips
    'svcips.list': apiCall('svcips.list'),
    'svcips.register': apiCall('svcips.register'),
    'svcips.get': apiCall('svcips.get'),
    'svcips.expiration.list': apiCall('svcips.expiration.list'),
    'svcips.expiration.get': apiCall('svcips.expiration.get'),
    'svcips.expiration.extend': apiCall('svcips.expiration.extend'),
    'svcips.setting.set': apiCall('svcips.setting.set'),
    'svcips.cache.delete': apiCall('svcips.cache.delete'),

    // domains
    'domains.list': apiCall('domains.list'),
    'domains.register': apiCall('domains.register'),
    'domains.get': apiCall('domains.get'),
    'domains.remove': apiCall('domains.remove'),
    'domains.transfer.list': apiCall('domains.transfer.list'),
    'domains.transfer.listForDomain': apiCall('domains.transfer.listForDomain'),
    'domains.transfer.request': apiCall('domains.transfer.request'),
    'domains.transfer.get': apiCall('domains.transfer.get'),
    'domains.transfer.cancel': apiCall('domains.transfer.cancel'),
    'domains.expiration.list': apiCall('domains.expiration.list'),
    'domains.expiration.get': apiCall('domains.expiration.get'),
    'domains.expiration.renew': apiCall('domains.expiration.renew'),
    'domains.autorenew.list': apiCall('domains.autorenew.list'),
    'domains.autorenew.get': apiCall('domains.autorenew.get'),
    'domains.autorenew.set': apiCall('domains.autorenew.set'),
    'domains.transferlock.list': apiCall('domains.transferlock.list'),
    'domains.transferlock.get': apiCall('domains.transferlock.get'),
    'domains.transferlock.set': apiCall('domains.transferlock.set'),
    'domains.whois.list': apiCall('domains.whois.list'),
    'domains.whois.get': apiCall('domains.whois.get'),
    'domains.whois.set': apiCall('domains.whois.set'),
    'domains.nameserver.list': apiCall('domains.nameserver.list'),
    'domains.nameserver.get': apiCall('domains.nameserver.get'),
    'domains.nameserver.set': apiCall('domains.nameserver.set'),
    'domains.dns.list': apiCall('domains.dns.list'),
    'domains.dns.get': apiCall('domains.dns.get'),
    'domains.dns.set': apiCall('domains.dns.set'),
    'domains.dynamicdns.list': apiCall('domains.dynamicdns.list'),
    'domains.dynamicdns.get': apiCall('domains.dynamicdns.get'),
    'domains.dynamicdns.set': apiCall('domains.dynamicdns.set'),
    'domains.dnssec.list': apiCall('domains.dnssec.list'),
    'domains.dnssec.get': apiCall('domains.dnssec.get'),
    'domains.dnssec.set': apiCall('domains.dnssec.set'),
    'domains.privatenameserver.list': apiCall('domains.privatenameserver.list'),
    'domains.privatenameserver.create': apiCall('domains.privatenameserver.create'),
    'domains.privatenameserver.get': apiCall('domains.privatenameserver.get'),
    'domains.privatenameserver.delete': apiCall('domains.privatenameserver.delete'),
    'domains.localtransfer.list': apiCall('domains.localtransfer.list'),
    'domains.localtransfer.get': apiCall('domains.localtransfer.get'),
    'domains.localtransfer.set': apiCall('domains.localtransfer.set'),

    // domainsearch
    'domainsearch.check': apiCall('domainsearch.check'),

    // freedns
    'freedns.list': apiCall('freedns.list'),
    'freedns.get': apiCall('freedns.get'),
    'freedns.register': apiCall('freedns.register'),
    'freedns.set': apiCall('freedns.set'),
    'freedns.remove': apiCall('freedns.remove'),
    'freedns.localtransfer.list': apiCall('freedns.localtransfer.list'),
    'freedns.localtransfer.get': apiCall('freedns.localtransfer.get'),
    'freedns.localtransfer.set': apiCall('freedns.localtransfer.set'),

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
