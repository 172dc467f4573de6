/**
 * The IPC contract: every channel between the renderer and the main process, with
 * its payload schema and result type. It feeds the preload, the main-side handlers,
 * the end-to-end test bridge and the renderer's type of `window.api`.
 *
 * Three groups of channels:
 * - local channels (accounts, jobs), declared in `localChannels` below;
 * - one channel per API operation, derived from the endpoint table: `domains.dns.get`
 *   takes the operation's parameters plus `accountId` (and an optional `jobId`);
 * - one `all.<name>` channel per paged list, which reads every page and reports progress.
 *
 * Every call resolves to a Result: `{ ok: true, value }` or `{ ok: false, error }`,
 * where error is plain data (kind, status, message, requestId), never a stack or a key.
 */
import { z } from 'zod'
import {
  ENDPOINT_NAMES,
  PAGED_ENDPOINT_NAMES,
  endpoints,
  type EndpointInput,
  type EndpointName,
  type EndpointResult,
  type PagedEndpointName,
  type PagedInput,
  type PagedItem,
} from '../endpoints/table'
import { profileFieldsSchema, type AccountView } from '../accounts'
import type { ErrorData } from '../errors'

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorData }

export const accountIdSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, 'is not an account id')
export const jobIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a job id')
const keySchema = z.string().trim().min(1, 'is required').max(4096)
const storageSchema = z.enum(['keychain', 'session'])

export type ConnectionResult =
  | { ok: true; message: string }
  | { ok: false; kind: string; message: string; requestId?: string | undefined }

/** Declares a local channel: its payload schema and (as a type only) its result. */
function local<P extends z.ZodType, R>(payload: P) {
  return { payload, result: undefined as unknown as R }
}

export const localChannels = {
  'accounts.list': local<z.ZodObject, { accounts: AccountView[]; activeId: string; problem?: string | undefined }>(z.object({})),
  'accounts.create': local<z.ZodObject, AccountView>(
    z.object({ fields: profileFieldsSchema, apiKey: keySchema, storage: storageSchema }),
  ),
  'accounts.update': local<z.ZodObject, AccountView>(z.object({ id: accountIdSchema, fields: profileFieldsSchema })),
  'accounts.remove': local<z.ZodObject, null>(z.object({ id: accountIdSchema })),
  'accounts.setActive': local<z.ZodObject, null>(z.object({ id: accountIdSchema })),
  'accounts.replaceKey': local<z.ZodObject, null>(z.object({ id: accountIdSchema, apiKey: keySchema, storage: storageSchema })),
  'accounts.testConnection': local<z.ZodObject, ConnectionResult>(z.object({ id: accountIdSchema })),
  'accounts.keychainStatus': local<z.ZodObject, { available: boolean; message?: string | undefined }>(z.object({})),
  'jobs.cancel': local<z.ZodObject, null>(z.object({ jobId: jobIdSchema })),
} as const
export type LocalChannel = keyof typeof localChannels

export type ListAllChannel = `all.${PagedEndpointName}`
export type ChannelName = LocalChannel | EndpointName | ListAllChannel

/** What every API payload adds to the operation's own parameters. */
const apiExtras = { accountId: accountIdSchema, jobId: jobIdSchema.optional() }

function objectShape(schema: z.ZodType): z.ZodRawShape {
  return (schema as unknown as z.ZodObject).shape
}

/** Payload schema of every channel, built once. */
export const payloadSchemas: Record<ChannelName, z.ZodType> = (() => {
  const out: Partial<Record<ChannelName, z.ZodType>> = {}
  for (const [name, def] of Object.entries(localChannels)) out[name as LocalChannel] = def.payload
  for (const name of ENDPOINT_NAMES) out[name] = z.object({ ...objectShape(endpoints[name].params), ...apiExtras })
  for (const name of PAGED_ENDPOINT_NAMES) {
    const { limit: _limit, page: _page, ...rest } = objectShape(endpoints[name].params)
    out[`all.${name}`] = z.object({ ...rest, accountId: accountIdSchema, jobId: jobIdSchema })
  }
  return out as Record<ChannelName, z.ZodType>
})()

export const CHANNEL_NAMES = Object.keys(payloadSchemas) as ChannelName[]

// ------------------------------------------------------------ types

/** An operation's own parameters; `z.object({})` types as an index signature of never, so it becomes {}. */
type OwnParams<N extends EndpointName> = string extends keyof EndpointInput<N> ? object : EndpointInput<N>
export type ApiPayload<N extends EndpointName> = OwnParams<N> & { accountId: string; jobId?: string }
export type ListAllPayload<N extends PagedEndpointName> = PagedInput<N> & { accountId: string; jobId: string }

export interface Progress {
  jobId: string
  loadedItems: number
  expectedItems?: number | undefined
}

export type PayloadOf<C extends ChannelName> = C extends LocalChannel
  ? z.input<(typeof localChannels)[C]['payload']>
  : C extends EndpointName
    ? ApiPayload<C>
    : C extends `all.${infer N extends PagedEndpointName}`
      ? ListAllPayload<N>
      : never

export type ResultOf<C extends ChannelName> = C extends LocalChannel
  ? (typeof localChannels)[C]['result']
  : C extends EndpointName
    ? EndpointResult<C>
    : C extends `all.${infer N extends PagedEndpointName}`
      ? PagedItem<N>[]
      : never

type FnOf<C extends ChannelName> = C extends ListAllChannel
  ? (payload: PayloadOf<C>, onProgress?: (p: Progress) => void) => Promise<Result<ResultOf<C>>>
  : (payload: PayloadOf<C>) => Promise<Result<ResultOf<C>>>

type Split<S extends string> = S extends `${infer H}.${infer T}` ? [H, ...Split<T>] : [S]
type Nest<P extends string[], V> = P extends [infer H extends string, ...infer R extends string[]] ? { [K in H]: Nest<R, V> } : V
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

/** The renderer's `window.api`: one function per channel, nested by the channel's dotted name. */
export type WindowApi = UnionToIntersection<{ [C in ChannelName]: Nest<Split<C>, FnOf<C>> }[ChannelName]>

/** The IPC channel string for a contract channel. */
export const ipcChannel = (name: ChannelName) => `ha:${name}`
/** The one event channel main -> renderer: progress of listAll jobs. */
export const PROGRESS_CHANNEL = 'ha:progress'
