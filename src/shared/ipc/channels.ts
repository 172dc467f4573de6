/**
 * Every IPC channel between the renderer and the main process, by name, as plain data.
 * Nothing here needs a library, so the preload that turns these names into `window.api`
 * stays a few kilobytes. What each channel takes and answers is in contract.ts (types) and
 * payloads.ts (the schemas main validates with).
 *
 * Three groups:
 * - local channels (accounts, jobs), listed below;
 * - one channel per API operation, named like the endpoint table (`domains.dns.get`);
 * - one `all.<list>` channel per paged list, which reads every page and reports progress.
 */
import { ENDPOINT_NAMES, PAGED_ENDPOINT_NAMES, type EndpointName, type PagedEndpointName } from '../endpoints/names'

export const LOCAL_CHANNELS = [
  'accounts.list',
  'accounts.create',
  'accounts.update',
  'accounts.remove',
  'accounts.setActive',
  'accounts.replaceKey',
  'accounts.testConnection',
  'accounts.keychainStatus',
  'jobs.cancel',
] as const
export type LocalChannel = (typeof LOCAL_CHANNELS)[number]

export type ListAllChannel = `all.${PagedEndpointName}`
export type ChannelName = LocalChannel | EndpointName | ListAllChannel

export const LIST_ALL_CHANNELS: readonly ListAllChannel[] = PAGED_ENDPOINT_NAMES.map((n) => `all.${n}` as const)

export const CHANNEL_NAMES: readonly ChannelName[] = [...LOCAL_CHANNELS, ...ENDPOINT_NAMES, ...LIST_ALL_CHANNELS]

/** The Electron IPC channel string for a contract channel. */
export const ipcChannel = (name: ChannelName): string => `ha:${name}`

/** The one event channel main -> renderer: progress of listAll jobs. */
export const PROGRESS_CHANNEL = 'ha:progress'
