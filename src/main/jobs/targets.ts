/**
 * What a write acts on, as one string: the parameters that name the thing (a domain, a server,
 * a host name...), as the operation's facts list them (operations.ts), not the ones that say what
 * to do with it. The app sends at most one write per account, operation and target at a time.
 */
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import type { WriteEndpointName } from '@shared/endpoints/names'
import { isServerId } from '@shared/service/server-ref'
import { factsOf } from './operations'

/** A server's numeric id (as text) from its name, where the app knows it; undefined where it does not. */
export type ServerIdOf = (kind: ServerKind, webname: string) => string | undefined

const text = (v: unknown): string =>
  Array.isArray(v)
    ? v.map(text).join(',')
    : typeof v === 'string' || typeof v === 'number'
      ? String(v)
      : JSON.stringify(v)
const isServerKind = (v: unknown): v is ServerKind => typeof v === 'string' && SERVER_KINDS.some((k) => k === v)

/**
 * A server path names the server by its id or by its name, and both must be one target: else a
 * write by name could run beside one by id to the same server, or slip past its unknown outcome.
 * A name becomes the id when `serverIdOf` knows it (the stored server lists); otherwise it stays
 * as given, a target of its own (a server the app has not listed yet). An id is kept as it is:
 * the table's schema has made it a number already, so "13" and 13 are one.
 */
function serverWebid(params: Record<string, unknown>, serverIdOf: ServerIdOf | undefined): unknown {
  const { kind, webid } = params
  if (typeof webid !== 'string' || isServerId(webid) || !isServerKind(kind)) return webid
  return serverIdOf?.(kind, webid) ?? webid
}

export function targetOf(
  operation: WriteEndpointName,
  params: Record<string, unknown>,
  serverIdOf?: ServerIdOf,
): string {
  const named: Record<string, unknown> = { ...params, webid: serverWebid(params, serverIdOf) }
  const parts = factsOf(operation)
    .target.filter((k) => named[k] !== undefined)
    .map((k) => `${k}=${text(named[k])}`)
  return parts.length ? parts.join('&') : 'account'
}

/** How an item is named to the user when the renderer gave no label. */
export function defaultLabel(params: Record<string, unknown>): string {
  if (params.domain !== undefined) return text(params.domain)
  if (params.sld !== undefined && params.tld !== undefined) return `${text(params.sld)}.${text(params.tld)}`
  for (const k of ['hostname', 'webname', 'webid', 'vipid', 'servers'] as const)
    if (params[k] !== undefined) return text(params[k])
  return 'account'
}
