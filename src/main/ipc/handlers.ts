/**
 * One handler per IPC channel, each named as the channel is: `'domains.dns.get'` here is the
 * renderer's `invoke('domains.dns.get', ...)` and the endpoint table's `'domains.dns.get'`, so a
 * call, its handler and its endpoint are found from each other by a search for the name.
 * The type below makes a missing or misspelled channel a compile error. What is read lives in
 * reads/; read-handlers.ts gives the service's read operations their channels.
 */
import { storeHealth } from '../dns-health/store-health'
import { askedPlanHealth, servedZone } from '../dns-health/window-checks'
import { servedOutcome } from '@shared/dns/health/served'
import type { ChannelName } from '@shared/ipc/channels'
import type { ParsedPayloadOf, ResultOf } from '@shared/ipc/contract'
import type { AccountService } from '../accounts/account-service'
import type { AutorenewOnValues } from '../reads/learned-autorenew'
import type { JobRunner } from '../jobs/runner'
import type { AppControl } from './app-control'
import type { Reminders } from '../reminders'
import type { PortfolioStoreAsync } from '../store/store-async'
import type { JobEvents } from './job-events'
import { local, localDone, type ChannelHandler } from './channel'
import {
  whoisPrivacyOf,
  type WhoisPrivacyItem,
  type WhoisPrivacyList,
  type WhoisPrivacyPart,
} from '@shared/ipc/whois-privacy'
import type { RunningCalls } from '../reads/running-calls'
import { DEFAULT_HISTORY_RETENTION_DAYS } from '@shared/portfolio/history'
import { dueRemindersOf } from '@shared/portfolio/reminders'
import { createAccountReads, type TeamCatchUp } from '../reads/account-reads'
import { createStoredParts } from '../reads/stored-parts'
import { createHistoryReads } from '../reads/history-reads'
import { sendAccountDdns } from '../ddns/ddns-send'
import type { StoreStatus } from '@shared/portfolio/store-status'
import type { TeamSettingsService } from '../team/team-settings-service'
import { createTeamHandlers } from './team-handlers'
import { createAppHandlers } from './app-handlers'
import { createReadHandlers, parseListAllPayload } from './read-handlers'
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
  /** Team mode: the other members' writes brought into the local history before it is read or compared. */
  teamHistory?: TeamCatchUp | undefined
  /**
   * Team mode: the jobs other workstations made, as the team's journal says now (Writes shows the
   * team's jobs, each with its member).
   */
  teamJobs?: (() => Promise<JobView[]>) | undefined
}

/** Other workstations' jobs shown at most (the newest). */
const MAX_TEAM_JOBS_SHOWN = 300

export function createChannelHandlers(deps: HandlerDeps): ChannelHandlers {
  const { accounts, calls, jobs, jobEvents, app, store, accountNames, reminders, storeLife, teamJobs } = deps
  const reads = createAccountReads(deps)
  const storedPart = createStoredParts(
    (name, accountId, params) => reads.storedList(name, accountId, params),
    (name, accountId, params, part) => reads.storedListPart(name, accountId, params, part),
  )
  // The stored WHOIS list's flags, carried in parts like any stored list (issue 54). The store reads
  // them and cuts their parts, so main takes in the flags only, never the list's contacts.
  const storedPrivacyPart = createStoredParts<WhoisPrivacyItem>(
    async (_whois, accountId) => (store ? ((await store.readWhoisPrivacy(accountId)) ?? null) : null),
    async (_whois, accountId, _params, part) =>
      store ? ((await store.readWhoisPrivacyPart(accountId, part)) ?? null) : null,
  )
  const history = createHistoryReads(store, deps.teamHistory)
  const now = () => new Date().toISOString()
  const retention = async () => ({
    retentionDays: store ? await store.history.retentionDays() : DEFAULT_HISTORY_RETENTION_DAYS,
  })
  return {
    // Accounts and jobs
    'accounts.list': local('accounts.list', () => accounts.list()),
    'accounts.create': local('accounts.create', (p) => accounts.create(p.fields, p.apiKey, p.storage)),
    'accounts.update': local('accounts.update', (p) => accounts.update(p.id, p.fields, p.typedName)),
    'accounts.remove': localDone('accounts.remove', (p) => accounts.remove(p.id)),
    'accounts.setActive': localDone('accounts.setActive', (p) => accounts.setActive(p.id)),
    'accounts.replaceKey': localDone('accounts.replaceKey', (p) => accounts.replaceKey(p.id, p.apiKey, p.storage)),
    'accounts.testConnection': local('accounts.testConnection', (p) => accounts.testConnection(p.id)),
    'accounts.testKey': local('accounts.testKey', (p) => accounts.testKey(p.fields, p.apiKey)),
    'accounts.keychainStatus': local('accounts.keychainStatus', () => accounts.keychainStatus()),
    'reads.cancel': localDone('reads.cancel', (p) => calls.cancel(p.callId)),

    // Writes, as jobs run by main
    'jobs.prepare': local('jobs.prepare', (p) => jobs.prepare(p)),
    'jobs.start': local('jobs.start', (p) => jobs.start(p.jobId, p.token, p.accountName)),
    'jobs.submit': local('jobs.submit', (p) => jobs.submit(p)),
    'jobs.discard': localDone('jobs.discard', (p) => jobs.discard(p.jobId)),
    'jobs.list': local('jobs.list', async () => {
      const mine = jobs.list()
      if (!teamJobs) return mine
      // The team's word on its other members' jobs, read now: the runner knows them only as they were when it started.
      const others = (await teamJobs()).filter((j) => j.status !== 'prepared').slice(-MAX_TEAM_JOBS_SHOWN)
      if (others.length === 0) return mine
      const theirs = new Set(others.map((j) => j.id))
      const both = [...mine.filter((j) => !theirs.has(j.id)), ...others]
      return both.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    }),
    'jobs.watch': localDone('jobs.watch', (_p, sender) => jobEvents.watch(sender)),
    'jobs.pause': localDone('jobs.pause', (p) => jobs.pause(p.jobId)),
    'jobs.resume': localDone('jobs.resume', (p) => jobs.resume(p.jobId)),
    'jobs.stop': localDone('jobs.stop', (p) => jobs.stop(p.jobId)),
    'jobs.checkLog': local('jobs.checkLog', (p) => jobs.checkLog(p.jobId, p.index)),
    ...createAppHandlers(app, deps.quitConfirmed),
    // A list read afresh comes to the window in parts as a stored list does (issue 54): its read answers the first.
    'store.list': local('store.list', (p, sender) => {
      if (p.from === 'store' || (p.part ?? 0) > 0) return storedPart(p)
      // The very payload all.<name> would get: the list is kept under the same parameters.
      const asListAll = parseListAllPayload(p.name, { ...p.params, accountId: p.accountId, callId: p.callId })
      if (!asListAll.ok) throw new Error("a list read afresh needs a call id and the list's own parameters")
      return storedPart(p, async () => {
        const read = await reads.listAllRead(p.name, asListAll.value, (pr) => sender.sendProgress(pr))
        return { ...read, complete: true, skipped: 0 }
      })
    }),
    'store.search': local('store.search', async (p) => (store ? store.search(p.query) : [])),
    'store.exportZones': local('store.exportZones', async () => (store ? store.exportZones() : [])),
    'store.exportCsv': local('store.exportCsv', async () =>
      store ? store.exportCsv({ accountNames: accountNames?.() ?? {} }) : '',
    ),
    // history
    'history.list': local('history.list', (p) => history.list(p)),
    'history.unseen': local('history.unseen', () => history.unseen()),
    'history.markSeen': local('history.markSeen', (p) => history.markSeen(p)),
    'history.snapshots': local('history.snapshots', async (p) =>
      store ? store.history.snapshots(p.accountId, p.kind, p.domain) : [],
    ),
    'history.snapshot': local('history.snapshot', async (p) =>
      store ? ((await store.history.snapshot(p.accountId, p.id)) ?? null) : null,
    ),
    'history.settings': local('history.settings', retention),
    // The WHOIS list read whole, as all.domains.whois.list reads it (or its flags read by the store),
    // and only each domain's privacy flag sent: the domain list's column needs no contacts (issue 40).
    'details.whoisPrivacy': local(
      'details.whoisPrivacy',
      async (p, sender): Promise<WhoisPrivacyList | WhoisPrivacyPart | null> => {
        // In parts when a part is asked for (issue 54), else the whole as its only part.
        const { accountId, part } = p
        const ask = { name: 'domains.whois.list' as const, accountId, params: {}, part }
        if (p.from === 'store') return storedPrivacyPart(ask)
        // The very payload all.domains.whois.list would get: the list is kept under the same parameters.
        const asListAll = parseListAllPayload('domains.whois.list', { accountId: p.accountId, callId: p.callId })
        if (!asListAll.ok) throw new Error('the WHOIS list takes no parameters')
        const read = () => reads.listAllRead('domains.whois.list', asListAll.value, (pr) => sender.sendProgress(pr))
        // Read afresh and carried in parts: the first part is this read's, the others are asked from the store.
        if (part !== undefined) {
          return storedPrivacyPart(ask, async () => {
            const { items, readAt } = await read()
            return { items: whoisPrivacyOf(items), readAt, complete: true, skipped: 0 }
          })
        }
        return { items: whoisPrivacyOf((await read()).items), readAt: null, complete: true }
      },
    ),
    'store.refreshAccount': local('store.refreshAccount', (p, sender) =>
      reads.refresh(p, (done, total) =>
        sender.sendProgress({ callId: p.callId, loadedItems: done, expectedItems: total }),
      ),
    ),
    'history.setRetention': local('history.setRetention', async (p) => {
      await store?.history.setRetentionDays(p.days)
      return retention()
    }),
    // The router lets only the command line's sender call this one (CLI_ONLY_CHANNELS). The update
    // is sent here, with the password read here, and recorded as the service answered it.
    'ddns.send': local('ddns.send', (p) => sendAccountDdns(accounts, store, p)),
    // reminders
    'reminders.settings': local('reminders.settings', async () => reminders.settings()),
    'reminders.saveSettings': local('reminders.saveSettings', async (p) => reminders.saveSettings(p)),
    'reminders.due': local('reminders.due', async () => dueRemindersOf(await reminders.due())),
    // The click goes back to the page that asked: it knows the accounts and the routes.
    'reminders.notify': localDone('reminders.notify', (p, sender) =>
      reminders.show({ title: p.title, body: p.body }, () => void sender.sendReminderOpen?.(p.target)),
    ),
    'reminders.expirations': local('reminders.expirations', async (p) => reminders.expirations(p.accountId)),
    'reminders.open': local('reminders.open', async () => reminders.open()),
    'reminders.handle': local('reminders.handle', async (p) =>
      reminders.handle(p.accountId, p.key, p.how, p.snoozeDays),
    ),
    // bulk DNS change
    'store.zones': local('store.zones', async (p) => (store ? store.listZones(p.accountId, p.containing) : [])),
    // zone health
    'store.health': local('store.health', async (p) =>
      store ? storeHealth(store, p.accountIds) : { zones: [], served: [], zonesRead: 0, zonesKnown: 0 },
    ),
    'store.served': local('store.served', async (p) => (store ? store.history.servedResults(p.accountId) : [])),
    'dns.health': local('dns.health', (p) => askedPlanHealth(p)),
    'dns.served': local('dns.served', (p) =>
      calls.run(p.callId, async (signal) => {
        const report = await servedZone(await accounts.client(p.accountId), p.domain, signal)
        // Kept as the zone's last comparison; a difference that appeared or cleared is in history.
        const at = now()
        await reads.keep((s) => s.history.recordServed(p.accountId, p.domain, report.findings, at))
        return {
          accountId: p.accountId,
          domain: p.domain,
          outcome: servedOutcome(report.findings),
          findings: report.findings,
          at,
        }
      }),
    ),
    // The router lets only the command line's sender call this one (CLI_ONLY_CHANNELS): the
    // comparisons are the command's own doing (`dns served`), recorded as the window's are.
    'dns.servedRecord': local('dns.servedRecord', async (p) => {
      let recorded = 0
      const at = now()
      for (const z of p.zones) {
        await reads.keep(async (s) => (recorded += await s.history.recordServed(p.accountId, z.domain, z.findings, at)))
      }
      return { recorded }
    }),
    'store.status': local('store.status', async () => storeLife?.status() ?? { state: 'up', restarts: 0 }),
    'store.restart': local('store.restart', async () =>
      storeLife ? storeLife.restart() : { state: 'up', restarts: 0 },
    ),
    // team mode
    ...createTeamHandlers(deps.team),
    ...createReadHandlers(reads),
  }
}
