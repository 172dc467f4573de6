/**
 * One handler per IPC channel, each named as the channel is: `'domains.dns.get'` here is the
 * renderer's `invoke('domains.dns.get', ...)` and the endpoint table's `'domains.dns.get'`, so a
 * call, its handler and its endpoint are found from each other by a search for the name.
 * The type below makes a missing or misspelled channel a compile error.
 */
import { storeHealth } from '../dns-health/store-health'
import { askedPlanHealth, servedZone } from '../dns-health/window-checks'
import { servedOutcome } from '@shared/dns/health/served'
import { parseEndpointParams, type EndpointResult, type PagedEndpointName, type PagedItem, type ReadEndpointName } from '@shared/endpoints/table'
import { parseWith, type Parsed } from '@shared/errors/field-issues'
import type { AppChannel, ChannelName } from '@shared/ipc/channels'
import type { ApiParsed, ListAllParsed, ParsedPayloadOf, ResultOf } from '@shared/ipc/contract'
import { apiCallExtras, listAllExtras, localPayloads } from '@shared/ipc/payloads'
import type { AccountService } from '../accounts/account-service'
import type { AutorenewOnValues } from '../jobs/service-values'
import type { JobRunner } from '../jobs/runner'
import type { AppControl } from './app-control'
import type { Reminders } from '../reminders'
import type { StoredListName } from '@shared/portfolio'
import type { PortfolioStoreAsync } from '../store/store-async'
import { isStoredList } from '@shared/portfolio'
import type { JobEvents } from './job-events'
import { defineChannel, isRecord, type ChannelHandler, type Sender } from './channel'
import { whoisPrivacyOf, type WhoisPrivacyList } from '@shared/ipc/whois-privacy'
import type { RunningCalls } from './running-calls'
import { DEFAULT_HISTORY_RETENTION_DAYS } from '@shared/portfolio/history'
import { refreshAccount } from '../reads/refresh-account'
import { recordDdnsUpdate } from '../store/ddns-history'
import { sendDdnsUpdate } from '../ddns/ddns-update'
import { ddnsUrlOf } from '@shared/service/ddns'
import { AppError } from '../base/app-error'
import type { StoreStatus } from '@shared/portfolio/store-status'
import type { TeamSettingsService } from '../team/team-settings-service'
import { createTeamHandlers } from './team-handlers'
import type { TeamHistoryFeed } from '../team/team-history-feed'
import type { JobView } from '@shared/jobs'

export type ChannelHandlers = { [C in ChannelName]: ChannelHandler<ParsedPayloadOf<C>, ResultOf<C>> }

export interface HandlerDeps {
  accounts: AccountService
  calls: RunningCalls
  jobs: JobRunner
  jobEvents: JobEvents
  /** The user confirmed quitting although writes were running (the shell quits). */
  quitConfirmed: () => void
  app: AppControl
  /** Where every list read in full and every zone read is kept, for the next start and for search. */
  store?: PortfolioStoreAsync
  /** Names of the accounts, for the export. */
  accountNames?: () => Record<string, string>
  /** A store write that failed: never the read's failure, only noted. */
  onStoreError?: (err: unknown) => void
  /** Expiry reminders of every account, from the store. */
  reminders: Reminders
  /** Learns from every answer what the account's service writes for an auto-renewal setting that is on. */
  autorenewOn?: AutorenewOnValues
  /** Whether the store's worker answers, and Retry (a store without a worker is always up). */
  storeLife?: { status(): StoreStatus; restart(): Promise<StoreStatus> }
  /** The Team section: the team database's connection (issue 37). */
  team: TeamSettingsService
  /** Team mode: the other members' writes brought into the local history before it is read or compared (team-history-feed.ts). */
  teamHistory?: TeamHistoryFeed | undefined
  /** Team mode: the jobs other workstations made, as the team's journal says now (Writes shows the team's jobs, each with its member). */
  teamJobs?: (() => Promise<JobView[]>) | undefined
}

/** Other workstations' jobs shown at most (the newest). */
const MAX_TEAM_JOBS_SHOWN = 300

const notAnObject: Parsed<never> = { ok: false, issues: [{ path: '', code: 'field.wrongType', params: { expected: 'object' } }] }

/** An API payload taken apart: the account and job (checked here) and the operation's own parameters. */
function parseApiPayload<N extends ReadEndpointName>(name: N, raw: unknown): Parsed<ApiParsed<N>> {
  if (!isRecord(raw)) return notAnObject
  const { accountId, callId, ...rest } = raw
  const extras = parseWith(apiCallExtras, { accountId, callId })
  const params = parseEndpointParams(name, rest)
  if (!extras.ok || !params.ok) return { ok: false, issues: [...(extras.ok ? [] : extras.issues), ...(params.ok ? [] : params.issues)] }
  return { ok: true, value: { accountId: extras.value.accountId, callId: extras.value.callId, params: params.value } }
}

function parseListAllPayload<N extends PagedEndpointName>(name: N, raw: unknown): Parsed<ListAllParsed<N>> {
  if (!isRecord(raw)) return notAnObject
  // listAll sets the paging members itself; whatever the renderer sent for them is ignored.
  const { accountId, callId, limit: _limit, page: _page, ...rest } = raw
  const extras = parseWith(listAllExtras, { accountId, callId })
  const params = parseEndpointParams(name, rest)
  if (!extras.ok || !params.ok) return { ok: false, issues: [...(extras.ok ? [] : extras.issues), ...(params.ok ? [] : params.issues)] }
  const { limit: _l, page: _p, ...own } = params.value
  return { ok: true, value: { accountId: extras.value.accountId, callId: extras.value.callId, params: own } }
}

/** The app's own channels; the only ones that answer when the app could not start. */
export function createAppHandlers(app: AppControl, quitConfirmed: () => void): Pick<ChannelHandlers, AppChannel> {
  const local = localPayloads
  return {
    'app.quit': defineChannel(
      (raw) => parseWith(local['app.quit'], raw),
      async () => {
        quitConfirmed()
        return null
      },
    ),
    'app.unsavedWork': defineChannel(
      (raw) => parseWith(local['app.unsavedWork'], raw),
      async (p) => {
        app.setUnsavedWork(p.count)
        return null
      },
    ),
    'app.startup': defineChannel((raw) => parseWith(local['app.startup'], raw), async () => app.startup()),
    'app.diagnostics': defineChannel((raw) => parseWith(local['app.diagnostics'], raw), () => app.diagnostics()),
    'app.openLogFolder': defineChannel(
      (raw) => parseWith(local['app.openLogFolder'], raw),
      async () => {
        await app.openLogFolder()
        return null
      },
    ),
    'app.copyText': defineChannel(
      (raw) => parseWith(local['app.copyText'], raw),
      async (p) => {
        await app.copyText(p.text)
        return null
      },
    ),
    'app.reportError': defineChannel(
      (raw) => parseWith(local['app.reportError'], raw),
      async (p) => {
        app.reportError(p)
        return null
      },
    ),
  }
}

export function createChannelHandlers({ accounts, calls, jobs, jobEvents, quitConfirmed, app, store, accountNames, onStoreError, reminders, autorenewOn, storeLife, team, teamHistory, teamJobs }: HandlerDeps): ChannelHandlers {
  /** Keeps what was read (in the store's thread); a store that fails never fails the read. */
  const keep = async (write: (s: PortfolioStoreAsync) => Promise<unknown>): Promise<void> => {
    if (!store) return
    try {
      await write(store)
    } catch (err) {
      onStoreError?.(err)
    }
  }
  const now = () => new Date().toISOString()
  const apiCall = <N extends ReadEndpointName>(name: N): ChannelHandler<ApiParsed<N>, EndpointResult<N>> =>
    defineChannel(
      (raw) => parseApiPayload(name, raw),
      (p) =>
        calls.run(p.callId, async (signal) => {
          const result = await (await accounts.client(p.accountId)).callParsed(name, p.params, { signal })
          autorenewOn?.learn(p.accountId, result)
          return result
        }),
    )
  /** A zone read is kept for search and the next start. */
  const zoneCall = <N extends 'domains.dns.get' | 'freedns.get'>(name: N, kind: 'dns' | 'freedns'): ChannelHandler<ApiParsed<N>, EndpointResult<N>> =>
    defineChannel(
      (raw) => parseApiPayload(name, raw),
      (p) =>
        calls.run(p.callId, async (signal) => {
          // Team mode: a colleague's saves known before the zone is compared, meanwhile (never a change from outside).
          const caughtUp = teamHistory?.catchUp(p.accountId)
          const zone = await (await accounts.client(p.accountId)).callParsed(name, p.params, { signal })
          await caughtUp
          await keep((s) => s.putZone(p.accountId, kind, zone.domainname, { records: zone.records, ttl: zone.ttl, ns_type: 'ns_type' in zone ? zone.ns_type : undefined }, now()))
          return zone
        }),
    )
  const storedList = async (name: StoredListName, accountId: string, params: Readonly<Record<string, unknown>>) => {
    // Paging is not part of which list it is.
    const { limit: _l, page: _p, ...own } = params
    return store ? ((await store.readList(accountId, name, own)) ?? null) : null
  }

  /** Every page of a list, with progress to the sender, kept in the store. */
  const readAll = <N extends PagedEndpointName>(name: N, p: ListAllParsed<N>, sender: Sender): Promise<PagedItem<N>[]> =>
    calls.run(p.callId, async (signal) => {
      // Team mode: a colleague's writes known before the list is compared, meanwhile (never a change from outside).
      const caughtUp = isStoredList(name) ? teamHistory?.catchUp(p.accountId) : undefined
      return (await accounts.client(p.accountId)).listAllParsed(name, p.params, {
        signal,
        onProgress: (pr) => sender.sendProgress({ callId: p.callId, loadedItems: pr.loadedItems, expectedItems: pr.expectedItems }),
      }).then(async (items) => {
        await caughtUp
        // Every list read in full is kept: the next start paints from it.
        if (isStoredList(name)) await keep((s) => s.keepList(p.accountId, name, p.params, items, now()))
        autorenewOn?.learn(p.accountId, items)
        return items
      })
    })
  const listAll = <N extends PagedEndpointName>(name: N): ChannelHandler<ListAllParsed<N>, PagedItem<N>[]> =>
    defineChannel(
      (raw) => parseListAllPayload(name, raw),
      (p, sender) => readAll(name, p, sender),
    )

  const local = localPayloads
  return {
    // Accounts and jobs
    'accounts.list': defineChannel((raw) => parseWith(local['accounts.list'], raw), () => accounts.list()),
    'accounts.create': defineChannel(
      (raw) => parseWith(local['accounts.create'], raw),
      (p) => accounts.create(p.fields, p.apiKey, p.storage),
    ),
    'accounts.update': defineChannel((raw) => parseWith(local['accounts.update'], raw), (p) => accounts.update(p.id, p.fields, p.typedName)),
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
    'reads.cancel': defineChannel(
      (raw) => parseWith(local['reads.cancel'], raw),
      async (p) => {
        calls.cancel(p.callId)
        return null
      },
    ),

    // Writes, as jobs run by main
    'jobs.prepare': defineChannel((raw) => parseWith(local['jobs.prepare'], raw), (p) => jobs.prepare(p)),
    'jobs.start': defineChannel((raw) => parseWith(local['jobs.start'], raw), (p) => jobs.start(p.jobId, p.token, p.accountName)),
    'jobs.submit': defineChannel((raw) => parseWith(local['jobs.submit'], raw), (p) => jobs.submit(p)),
    'jobs.discard': defineChannel(
      (raw) => parseWith(local['jobs.discard'], raw),
      async (p) => {
        jobs.discard(p.jobId)
        return null
      },
    ),
    'jobs.list': defineChannel(
      (raw) => parseWith(local['jobs.list'], raw),
      async () => {
        const mine = jobs.list()
        if (!teamJobs) return mine
        // The team's word on its other members' jobs, read now: the runner knows them only as they were when it started.
        const others = (await teamJobs()).filter((j) => j.status !== 'prepared').slice(-MAX_TEAM_JOBS_SHOWN)
        if (others.length === 0) return mine
        const theirs = new Set(others.map((j) => j.id))
        return [...mine.filter((j) => !theirs.has(j.id)), ...others].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      },
    ),
    'jobs.watch': defineChannel(
      (raw) => parseWith(local['jobs.watch'], raw),
      async (_p, sender) => {
        jobEvents.watch(sender)
        return null
      },
    ),
    'jobs.pause': defineChannel(
      (raw) => parseWith(local['jobs.pause'], raw),
      async (p) => {
        jobs.pause(p.jobId)
        return null
      },
    ),
    'jobs.resume': defineChannel(
      (raw) => parseWith(local['jobs.resume'], raw),
      async (p) => {
        jobs.resume(p.jobId)
        return null
      },
    ),
    'jobs.stop': defineChannel(
      (raw) => parseWith(local['jobs.stop'], raw),
      async (p) => {
        jobs.stop(p.jobId)
        return null
      },
    ),
    'jobs.checkLog': defineChannel((raw) => parseWith(local['jobs.checkLog'], raw), (p) => jobs.checkLog(p.jobId, p.index)),
    ...createAppHandlers(app, quitConfirmed),
    'store.list': defineChannel((raw) => parseWith(local['store.list'], raw), async (p) => storedList(p.name, p.accountId, p.params)),
    'store.search': defineChannel((raw) => parseWith(local['store.search'], raw), async (p) => (store ? store.search(p.query) : [])),
    'store.exportZones': defineChannel((raw) => parseWith(local['store.exportZones'], raw), async () => (store ? store.exportZones() : [])),
    'store.exportCsv': defineChannel((raw) => parseWith(local['store.exportCsv'], raw), async () => (store ? store.exportCsv({ accountNames: accountNames?.() ?? {} }) : '')),
    // history
    'history.list': defineChannel(
      (raw) => parseWith(local['history.list'], raw),
      async (p) => {
        if (!store) return []
        await teamHistory?.catchUp(p.accountId)
        return store.history.list(p)
      },
    ),
    'history.unseen': defineChannel(
      (raw) => parseWith(local['history.unseen'], raw),
      async () => {
        if (!store) return {}
        const counts = await store.history.unseen()
        if (!teamHistory) return counts
        // Team mode: a change from outside a colleague has looked at is not counted here either.
        for (const [accountId, n] of Object.entries(counts)) if (n > 0) await teamHistory.catchUp(accountId)
        return store.history.unseen()
      },
    ),
    'history.markSeen': defineChannel(
      (raw) => parseWith(local['history.markSeen'], raw),
      async (p) => {
        if (!store) return 0
        // Team mode: what is looked at here is looked at for the team; the rows are read before they are marked.
        const both = p.subjectKind !== undefined && p.subject !== undefined
        const marking = teamHistory
          ? (await store.history.list({ accountId: p.accountId, outsideOnly: true, ...(both ? { subjectKind: p.subjectKind, subject: p.subject } : {}) })).filter(
              (e) => !e.seen && (!p.ids || p.ids.includes(e.id)),
            )
          : []
        const n = await store.history.markSeen(p.accountId, p)
        if (teamHistory && marking.length > 0) await teamHistory.seenHere(p.accountId, marking)
        return n
      },
    ),
    'history.snapshots': defineChannel((raw) => parseWith(local['history.snapshots'], raw), async (p) => (store ? store.history.snapshots(p.accountId, p.kind, p.domain) : [])),
    'history.snapshot': defineChannel((raw) => parseWith(local['history.snapshot'], raw), async (p) => (store ? ((await store.history.snapshot(p.accountId, p.id)) ?? null) : null)),
    'history.settings': defineChannel((raw) => parseWith(local['history.settings'], raw), async () => ({ retentionDays: store ? await store.history.retentionDays() : DEFAULT_HISTORY_RETENTION_DAYS })),
    // The WHOIS list read (or stored) whole, as all.domains.whois.list reads it, and only each
    // domain's privacy flag sent: the domain list's column needs no contacts (issue 40).
    'details.whoisPrivacy': defineChannel(
      (raw) => parseWith(local['details.whoisPrivacy'], raw),
      async (p, sender): Promise<WhoisPrivacyList | null> => {
        if (p.from === 'store') {
          const stored = await storedList('domains.whois.list', p.accountId, {})
          return stored ? { items: whoisPrivacyOf(stored.items), readAt: stored.readAt, complete: stored.complete } : null
        }
        // The very payload all.domains.whois.list would get: the list is kept under the same parameters.
        const asListAll = parseListAllPayload('domains.whois.list', { accountId: p.accountId, callId: p.callId })
        if (!asListAll.ok) throw new Error('the WHOIS list takes no parameters')
        const items = await readAll('domains.whois.list', asListAll.value, sender)
        return { items: whoisPrivacyOf(items), readAt: null, complete: true }
      },
    ),
    'store.refreshAccount': defineChannel(
      (raw) => parseWith(local['store.refreshAccount'], raw),
      async (p, sender) => {
        if (!store) return { read: 0, drift: 0, failed: [] }
        const portfolio = store
        // A colleague's write known first, so the refresh that finds it does not call it a change from outside.
        await teamHistory?.catchUp(p.accountId)
        return calls.run(p.callId, async (signal) =>
          refreshAccount(await accounts.client(p.accountId), portfolio, p.accountId, {
            signal,
            onList: (done, total) => sender.sendProgress({ callId: p.callId, loadedItems: done, expectedItems: total }),
          }),
        )
      },
    ),
    'history.setRetention': defineChannel(
      (raw) => parseWith(local['history.setRetention'], raw),
      async (p) => {
        await store?.history.setRetentionDays(p.days)
        return { retentionDays: store ? await store.history.retentionDays() : DEFAULT_HISTORY_RETENTION_DAYS }
      },
    ),
    // The router lets only the command line's sender call this one (CLI_ONLY_CHANNELS). The update
    // is sent here, with the password read here, and recorded as the service answered it.
    'ddns.send': defineChannel(
      (raw) => parseWith(local['ddns.send'], raw),
      async (p) => {
        const account = (await accounts.list()).accounts.find((a) => a.id === p.accountId)
        if (!account) throw AppError.of('validation', { code: 'account.notFound' })
        const settings = await (await accounts.client(p.accountId)).call('domains.dynamicdns.get', { domain: p.domain })
        if (settings.dynamicdns === 0 || !settings.password) throw AppError.of('validation', { code: 'cli.ddns.off', params: { domain: p.domain } })
        const domain = settings.domainname || p.domain
        const sent = await sendDdnsUpdate({ accountId: p.accountId, domain, base: ddnsUrlOf(account), password: settings.password }, p.host, p.ip)
        if (store) await recordDdnsUpdate(store, { accountId: p.accountId, domain, host: p.host ?? '@', ip: p.ip, ok: sent.ok })
        return sent
      },
    ),
    // reminders
    'reminders.settings': defineChannel((raw) => parseWith(local['reminders.settings'], raw), async () => reminders.settings()),
    'reminders.saveSettings': defineChannel((raw) => parseWith(local['reminders.saveSettings'], raw), async (p) => reminders.saveSettings(p)),
    'reminders.due': defineChannel((raw) => parseWith(local['reminders.due'], raw), async () => reminders.due()),
    'reminders.notify': defineChannel(
      (raw) => parseWith(local['reminders.notify'], raw),
      async (p, sender) => {
        // The click goes back to the page that asked: it knows the accounts and the routes.
        reminders.show({ title: p.title, body: p.body }, () => void sender.sendReminderOpen?.(p.target))
        return null
      },
    ),
    'reminders.expirations': defineChannel((raw) => parseWith(local['reminders.expirations'], raw), async (p) => reminders.expirations(p.accountId)),
    'reminders.open': defineChannel((raw) => parseWith(local['reminders.open'], raw), async () => reminders.open()),
    'reminders.handle': defineChannel((raw) => parseWith(local['reminders.handle'], raw), async (p) => reminders.handle(p.accountId, p.key, p.how, p.snoozeDays)),
    // bulk DNS change
    'store.zones': defineChannel((raw) => parseWith(local['store.zones'], raw), async (p) => (store ? store.listZones(p.accountId, p.containing) : [])),
    // zone health
    'store.health': defineChannel((raw) => parseWith(local['store.health'], raw), async (p) =>
      store ? storeHealth(store, p.accountIds) : { zones: [], served: [], zonesRead: 0, zonesKnown: 0 },
    ),
    'store.served': defineChannel((raw) => parseWith(local['store.served'], raw), async (p) => (store ? store.history.servedResults(p.accountId) : [])),
    'dns.health': defineChannel((raw) => parseWith(local['dns.health'], raw), (p) => askedPlanHealth(p)),
    'dns.served': defineChannel(
      (raw) => parseWith(local['dns.served'], raw),
      (p) =>
        calls.run(p.callId, async (signal) => {
          const report = await servedZone(await accounts.client(p.accountId), p.domain, signal)
          // Kept as the zone's last comparison; a difference that appeared or cleared is in history.
          const at = now()
          await keep((s) => s.history.recordServed(p.accountId, p.domain, report.findings, at))
          return { accountId: p.accountId, domain: p.domain, outcome: servedOutcome(report.findings), findings: report.findings, at }
        }),
    ),
    // The router lets only the command line's sender call this one (CLI_ONLY_CHANNELS): the
    // comparisons are the command's own doing (`dns served`), recorded as the window's are.
    'dns.servedRecord': defineChannel(
      (raw) => parseWith(local['dns.servedRecord'], raw),
      async (p) => {
        let recorded = 0
        const at = now()
        for (const z of p.zones) await keep(async (s) => (recorded += await s.history.recordServed(p.accountId, z.domain, z.findings, at)))
        return { recorded }
      },
    ),
    'store.status': defineChannel((raw) => parseWith(local['store.status'], raw), async () => storeLife?.status() ?? { state: 'up', restarts: 0 }),
    'store.restart': defineChannel((raw) => parseWith(local['store.restart'], raw), async () => (storeLife ? storeLife.restart() : { state: 'up', restarts: 0 })),
    // team mode
    ...createTeamHandlers(team),

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
    'domains.dns.get': zoneCall('domains.dns.get', 'dns'),
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
    'freedns.get': zoneCall('freedns.get', 'freedns'),
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
