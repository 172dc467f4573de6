/**
 * The IPC contract as types: for every channel, what the renderer sends, what main's handler
 * receives once the payload is validated, and what comes back. No runtime code: the channel
 * names are in channels.ts and the schemas in payloads.ts.
 *
 * Every call resolves to a Result: `{ ok: true, value }` or `{ ok: false, error }`, where error
 * is plain data (a kind, a code and parameters, the request ID), never a stack or a key.
 */
import type { z } from 'zod'
import type { AccountView } from '../accounts'
import type { ErrorData } from '../errors'
import type { HealthFinding } from '../dns/health/rules'
import type { ServedResult } from '../dns/health/served'
import type { DdnsSent } from '../service/ddns'
import type { StoreStatus } from '../portfolio/store-status'
import type { JobView, LeftOutItem } from '../jobs'
import type {
  EndpointInput,
  EndpointName,
  ReadEndpointName,
  EndpointParams,
  EndpointResult,
  PagedEndpointName,
  PagedInput,
  PagedItem,
  PagedParams,
} from '../endpoints/table'
import type { ChannelName, LocalChannel } from './channels'
import type { WhoisPrivacyList, WhoisPrivacyPart } from './whois-privacy'
import type { LocalPayloads } from './payloads'
import type { HistoryEntry, Snapshot, SnapshotSummary } from '../portfolio/history'
import type {
  DueReminders,
  ExpiringItem,
  OpenReminder,
  ReminderHandled,
  ReminderSettings,
  ReminderTarget,
} from '../portfolio/reminders'
import type { HealthOverview, SearchHit, StoredListName, StoredListPart, ZoneFile, ZoneSummary } from '../portfolio'
import type { TeamStatusView, TeamTestResult } from '../team'

export type { ChannelName, LocalChannel, ListAllChannel } from './channels'

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorData }

export interface Progress {
  /** The read it is about: the call id the renderer gave it. */
  callId: string
  loadedItems: number
  expectedItems?: number | undefined
}

/** Whether an account's URL and key work: yes, or the error the service gave. */
export type ConnectionResult = { ok: true } | ({ ok: false } & ErrorData)

/** What "Copy diagnostics" is made of: versions, counts and the log's last lines (redacted), never a key, URL or WHOIS field. */
export interface Diagnostics {
  app: string
  electron: string | null
  chrome: string | null
  node: string
  os: string
  accounts: number
  logFile: string
  log: string[]
}

/** Whether the app started; when it did not, what went wrong (a code, the file concerned). */
export interface StartupState {
  problem?: ErrorData | undefined
  /** Started, but something the user should know (the portfolio store was kept aside and begun afresh). */
  warnings?: ErrorData[] | undefined
}

/** What each local channel answers. */
export interface LocalResults {
  'accounts.list': { accounts: AccountView[]; activeId: string; problem?: ErrorData | undefined }
  'accounts.create': AccountView
  'accounts.update': AccountView
  'accounts.remove': null
  'accounts.setActive': null
  'accounts.replaceKey': null
  'accounts.testConnection': ConnectionResult
  'accounts.testKey': ConnectionResult
  'accounts.keychainStatus': { available: boolean; problem?: ErrorData | undefined }
  'reads.cancel': null
  /** `leftOut`: with `skipBusy`, the items left out because another send held their target. */
  'jobs.prepare': { job: JobView; token?: string | undefined; leftOut?: LeftOutItem[] | undefined }
  'jobs.start': JobView
  'jobs.submit': JobView
  'jobs.discard': null
  'jobs.list': JobView[]
  'jobs.watch': null
  'jobs.pause': null
  'jobs.resume': null
  'jobs.stop': null
  'jobs.checkLog': 'received' | 'not-found' | 'undecided' | 'failed'
  'app.quit': null
  'app.unsavedWork': null
  'app.startup': StartupState
  'app.diagnostics': Diagnostics
  'app.openLogFolder': null
  'app.copyText': null
  'app.reportError': null
  /**
   * A list as last stored (items of the list's own type: see AccountApi.stored), or null when never read:
   * the part asked for, or the whole list as its only part when none was asked for. From 'service': the
   * list read afresh first (AccountApi.listAll), its first part; its other parts are then the stored ones.
   */
  'store.list': StoredListPart<StoredListName> | null
  'store.search': SearchHit[]
  'store.exportCsv': string
  'store.exportZones': ZoneFile[]
  // history
  'history.list': HistoryEntry[]
  /** Changes from outside not looked at yet, per account id. */
  'history.unseen': Record<string, number>
  /** How many were marked. */
  'history.markSeen': number
  'history.snapshots': SnapshotSummary[]
  'history.snapshot': Snapshot | null
  'history.settings': { retentionDays: number }
  'history.setRetention': { retentionDays: number }
  /** The update as the service answered it (status and reason line), recorded in history either way. */
  'ddns.send': DdnsSent
  /** Lists read and kept, changes from outside recorded, lists that failed (by name, with why). */
  'store.refreshAccount': { read: number; drift: number; failed: { list: string; error: ErrorData }[] }
  /** Null: asked from the store, which has never kept the account's WHOIS list. */
  /** A part when one was asked for (the stored flags), else the whole list. */
  'details.whoisPrivacy': WhoisPrivacyList | WhoisPrivacyPart | null
  // reminders
  'reminders.settings': ReminderSettings
  /** The settings as kept (thresholds each once, largest first). */
  'reminders.saveSettings': ReminderSettings
  /** Due now: the most urgent, first, and how many in all; main records every one as sent when it answers. */
  'reminders.due': DueReminders
  'reminders.notify': null
  'reminders.expirations': ExpiringItem[]
  /** Every reminder whose threshold is reached, each with how it was handled (in team mode: by whom). */
  'reminders.open': OpenReminder[]
  /** `mine: false`: someone else had handled it first (their handling is the one kept). */
  'reminders.handle': { mine: boolean; handled: ReminderHandled }
  // bulk DNS change
  /** The zones the store holds (of one account, or of every account), without their records. */
  'store.zones': ZoneSummary[]
  // zone health
  /** Every zone of the store with health findings, the zones' last comparisons, and how much was read. */
  'store.health': HealthOverview
  /** Each zone's last comparison with its nameservers (of one account, or every account). */
  'store.served': ServedResult[]
  /** Every finding of the zone after the save, the DNS-asking rules included; the new ones first. */
  'dns.health': HealthFinding[]
  /** The comparison, as kept in the store. */
  'dns.served': ServedResult
  /** How many of the zones given had findings other than at their last comparison (one history entry each). */
  'dns.servedRecord': { recorded: number }
  'store.status': StoreStatus
  /** The status once a worker was started again (or could not be). */
  'store.restart': StoreStatus
  // team mode: never the password
  'team.test': TeamTestResult
  'team.connect': TeamStatusView
  'team.status': TeamStatusView
  'team.disconnect': TeamStatusView
}

/** An operation's own parameters; `z.object({})` types as an index signature, which becomes {}. */
export type ApiParams<N extends EndpointName> = string extends keyof EndpointInput<N> ? object : EndpointInput<N>

/**
 * What the renderer sends for an API operation: its parameters, the account, and a call id (a
 * read's own, to cancel it or follow its progress; a write job's id is another thing: jobs.*).
 */
export type ApiPayload<N extends EndpointName> = ApiParams<N> & { accountId: string; callId?: string }
export type ListAllPayload<N extends PagedEndpointName> = PagedInput<N> & { accountId: string; callId: string }

/** What main's handler receives for an API operation, validated once at the boundary. */
export interface ApiParsed<N extends EndpointName> {
  accountId: string
  callId?: string | undefined
  params: EndpointParams<N>
}
export interface ListAllParsed<N extends PagedEndpointName> {
  accountId: string
  callId: string
  params: PagedParams<N>
}

/**
 * A channel's payload (as sent, and as main's handler receives it validated) and its answer, by
 * the kind of channel it is: a local one, an API read, or an `all.*` list.
 */
type ChannelTypes<C extends ChannelName> = C extends LocalChannel
  ? { payload: z.input<LocalPayloads[C]>; parsed: z.output<LocalPayloads[C]>; result: LocalResults[C] }
  : C extends ReadEndpointName
    ? { payload: ApiPayload<C>; parsed: ApiParsed<C>; result: EndpointResult<C> }
    : C extends `all.${infer N extends PagedEndpointName}`
      ? { payload: ListAllPayload<N>; parsed: ListAllParsed<N>; result: PagedItem<N>[] }
      : never

export type PayloadOf<C extends ChannelName> = ChannelTypes<C>['payload']
export type ParsedPayloadOf<C extends ChannelName> = ChannelTypes<C>['parsed']
export type ResultOf<C extends ChannelName> = ChannelTypes<C>['result']

/**
 * The one typed client of the contract: a channel's name, its payload, and the Result of what it
 * answers. Every caller goes through a function of this type: the renderer's bridge, main's
 * router (`IpcRouter.client`), the command line (in-process and through the app's door) and the
 * tests' helpers. `onProgress` follows an `all.*` read (by the payload's callId); the other
 * channels report none.
 */
export type Call = <C extends ChannelName>(
  channel: C,
  payload: PayloadOf<C>,
  onProgress?: (p: Progress) => void,
) => Promise<Result<ResultOf<C>>>

/**
 * What the preload exposes as `window.api`: one flat `invoke` for the contract's channels (it
 * refuses any other name without sending it) and main's events. Untyped on purpose: the answer
 * is whatever crossed the process boundary; the renderer's bridge checks it is a Result and
 * states it as the contract's (`Call`).
 */
export interface WindowApi {
  invoke(channel: ChannelName, payload: unknown): Promise<unknown>
  /** Progress of every `all.*` read of the page; the bridge hands each to its call by callId. */
  onProgress(listener: (p: Progress) => void): () => void
  /** A write job changed. */
  onJob(listener: (job: JobView) => void): () => void
  /** Main asks before quitting while writes run; the listener asks the user (app.quit confirms). */
  onQuitRequest(listener: () => void): () => void
  /** Main's question before a reload the page's unsaved edits held back. */
  onReloadRequest(listener: () => void): () => void
  /** The user clicked a reminder's notification: the listener opens its item. */
  onReminderOpen(listener: (target: ReminderTarget) => void): () => void
}
