/**
 * Parameters in the values the service itself uses, fixed when a job is prepared (so the
 * confirmation, the journal and what is sent agree): an auto-renewal setting turned on is sent
 * as the number the service writes for "on" in that account's own data (10 on the live
 * service), 1 when nothing was seen (reads/learned-autorenew.ts learns it). Any non-zero value
 * asked for means "on".
 */
import type { EndpointParams, WriteEndpointName } from '@shared/endpoints/table'
import { factsOf } from './operations'

/** The value sent for "on" when the account's data shows none. */
const DEFAULT_ON_VALUE = 1

export function inServiceValues<N extends WriteEndpointName>(
  operation: N,
  params: EndpointParams<N>,
  onValue: number | undefined,
): EndpointParams<N> {
  const settings = factsOf(operation).autorenew
  if (!settings) return params
  const out: EndpointParams<N> = { ...params }
  for (const name of settings) {
    const v: unknown = Reflect.get(out, name)
    if (typeof v === 'number' && v !== 0) Reflect.set(out, name, onValue ?? DEFAULT_ON_VALUE)
  }
  return out
}
