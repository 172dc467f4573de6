/**
 * What the service kept, read back after a save. The live service's answer to a zone save only
 * repeats the request (recorded: the TTL comes back as the number sent, while every GET gives a
 * string; dns-lexicon's valuedomain cassettes, 2020 and 2021), so it cannot show what was
 * stored. After a zone save (DNS and free DNS), a nameserver change or a WHOIS change, the value
 * is read again: the comparison with what was sent, the store, history and snapshots use it.
 */
import type { ApiClient } from '../http'
import type { WriteEndpointName } from '@shared/endpoints/names'
import { toErrorData } from '../base/app-error'
import { factsOf } from './operations'
import type { ErrorData } from '@shared/errors'

/** Whether the write's value is read back after it is sent (its item's result is then what was kept). */
export const readsBack = (operation: WriteEndpointName): boolean => factsOf(operation).readBack !== undefined

export type ReadBackResult = { kept: unknown } | { error: ErrorData } | undefined

/** The value as the service holds it after the write; undefined for a write that is not read back. */
export async function readBack(
  client: ApiClient,
  operation: WriteEndpointName,
  params: Readonly<Record<string, unknown>>,
  signal?: AbortSignal,
): Promise<ReadBackResult> {
  const read = factsOf(operation).readBack
  const domain = params.domain
  if (!read || (typeof domain !== 'string' && typeof domain !== 'number')) return undefined
  try {
    return { kept: await client.call(read, { domain: String(domain) }, signal ? { signal } : {}) }
  } catch (err) {
    return { error: toErrorData(err) }
  }
}
