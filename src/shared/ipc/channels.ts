/**
 * Every IPC channel between the renderer and the main process, by name, as plain data.
 * Nothing here needs a library, so the preload, whose `window.api.invoke` sends only these
 * names, stays a few kilobytes. What each channel takes and answers is in contract.ts (types) and
 * payloads.ts (the schemas main validates with).
 *
 * Three groups:
 * - local channels (accounts, write jobs, cancelling a read), listed below;
 * - one channel per read of the API, named like the endpoint table (`domains.dns.get`); the
 *   writes have no channel of their own: they go through the jobs channels;
 * - one `all.<list>` channel per paged list, which reads every page and reports progress.
 */
import {
  PAGED_ENDPOINT_NAMES,
  READ_ENDPOINT_NAMES,
  type PagedEndpointName,
  type ReadEndpointName,
} from '../endpoints/names'

export const LOCAL_CHANNELS = [
  'accounts.list',
  'accounts.create',
  'accounts.update',
  'accounts.remove',
  'accounts.setActive',
  'accounts.replaceKey',
  'accounts.testConnection',
  'accounts.testKey',
  'accounts.keychainStatus',
  'reads.cancel',
  // Writes: each one is a job run by main (src/main/jobs), never a direct call.
  'jobs.prepare',
  'jobs.start',
  'jobs.submit',
  'jobs.discard',
  'jobs.list',
  'jobs.watch',
  'jobs.pause',
  'jobs.resume',
  'jobs.stop',
  'jobs.checkLog',
  // The user confirmed quitting while writes were running.
  'app.quit',
  // How many unsaved edits the window holds: closing it asks first while there are any.
  'app.unsavedWork',
  // The app itself: whether it started, its diagnostics and log folder, the clipboard, and
  // errors of the page for the log.
  'app.startup',
  'app.diagnostics',
  'app.openLogFolder',
  'app.copyText',
  'app.reportError',
  // The portfolio store: the last-read lists of every account, search across them, export.
  'store.list',
  'store.search',
  'store.exportCsv',
  'store.exportZones',
  // history: what happened to each subject, changes from outside not looked at yet, snapshots
  'history.list',
  'history.unseen',
  'history.markSeen',
  'history.snapshots',
  'history.snapshot',
  'history.settings',
  'history.setRetention',
  // A dynamic DNS update for the command line (not an API write, so no job): sent and recorded in
  // history by the services that hold the store, so no caller can record an update that was not sent.
  'ddns.send',
  // Every account-wide list of one account read again and kept (changes from outside noted).
  'store.refreshAccount',
  // The WHOIS privacy flag of every domain, for the domain list's column: the WHOIS list read
  // (or stored) in full in main, and only these two fields sent (issue 40).
  'details.whoisPrivacy',
  // reminders: expiry reminders (settings, which are due, showing one) and the dates for a calendar.
  'reminders.settings',
  'reminders.saveSettings',
  'reminders.due',
  'reminders.notify',
  'reminders.expirations',
  // handled once for everyone who sees them (in team mode, for the team): acknowledged, snoozed, sent to the calendar.
  'reminders.open',
  'reminders.handle',
  // bulk DNS change
  // The zones of every account as last read (the store's summaries, without their records).
  'store.zones',
  // zone health: the findings of every zone in the store (shared/dns/health)
  'store.health',
  // Each zone's last comparison with its nameservers, as kept (it survives a reload).
  'store.served',
  // The checks of a zone that ask DNS, run in main: a plan's health with them, and the zone as
  // its nameservers serve it held against what the service holds (shared/dns/health).
  'dns.health',
  'dns.served',
  // The command line's comparisons of zones served against saved, recorded in history as the window's are.
  'dns.servedRecord',
  // Whether the portfolio store answers, and Retry once it gave up (shared/portfolio/store-status).
  'store.status',
  'store.restart',
  // team mode (issue 37): the team database's connection, tested, connected, its status, disconnected
  'team.test',
  'team.connect',
  'team.status',
  'team.disconnect',
] as const
export type LocalChannel = (typeof LOCAL_CHANNELS)[number]
export type AppChannel = Extract<LocalChannel, `app.${string}`>

/**
 * Channels only the command line may call (the router refuses any other sender, the window's
 * included): what they record is the command's own doing, which no page can vouch for.
 */
export const CLI_ONLY_CHANNELS: readonly LocalChannel[] = ['ddns.send', 'dns.servedRecord']

/**
 * Channels only the window may call (the router refuses the command line's sender, through the
 * running app's door included): quitting while writes run is the answer to the question the
 * window asks, which no script has seen.
 */
export const WINDOW_ONLY_CHANNELS: readonly LocalChannel[] = ['app.quit']

export type ListAllChannel = `all.${PagedEndpointName}`
export type ChannelName = LocalChannel | ReadEndpointName | ListAllChannel

const LIST_ALL_CHANNELS: readonly ListAllChannel[] = PAGED_ENDPOINT_NAMES.map((n) => `all.${n}` as const)

export const CHANNEL_NAMES: readonly ChannelName[] = [...LOCAL_CHANNELS, ...READ_ENDPOINT_NAMES, ...LIST_ALL_CHANNELS]

/** The Electron IPC channel string for a contract channel. */
export const ipcChannel = (name: ChannelName): string => `ha:${name}`

/**
 * Main's events to the window, one channel each: the one list of what main sends (main/index.ts)
 * and the preload follows (preload/index.ts), named as window.api's `on...` functions are.
 */
export const EVENT_CHANNELS = {
  /** Progress of a list read. */
  progress: 'ha:progress',
  /** A write job that changed. */
  job: 'ha:job',
  /** Main asks the window to confirm quitting while writes are running. */
  quitRequest: 'ha:quit-request',
  /** Main asks the window to confirm a reload its unsaved edits held back (Electron asks nothing itself). */
  reloadRequest: 'ha:reload-request',
  /** The user clicked a reminder's notification: the window opens its item (a ReminderTarget). */
  reminderOpen: 'ha:reminder-open',
} as const
