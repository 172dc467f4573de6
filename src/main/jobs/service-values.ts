/**
 * Parameters in the values the service itself uses, fixed when a job is prepared (so the
 * confirmation, the journal and what is sent agree): an auto-renewal setting turned on is sent
 * as the number the service writes for "on" in that account's own data (10 on the live
 * service), 1 when nothing was seen. Any non-zero value asked for means "on".
 */
import type { EndpointParams, WriteEndpointName } from '@shared/endpoints/table'
import { factsOf } from './operations'

/** The value sent for "on" when the account's data shows none. */
const DEFAULT_ON_VALUE = 1

export function inServiceValues<N extends WriteEndpointName>(operation: N, params: EndpointParams<N>, onValue: number | undefined): EndpointParams<N> {
  const settings = factsOf(operation).autorenew
  if (!settings) return params
  const out: EndpointParams<N> = { ...params }
  for (const name of settings) {
    const v: unknown = Reflect.get(out, name)
    if (typeof v === 'number' && v !== 0) Reflect.set(out, name, onValue ?? DEFAULT_ON_VALUE)
  }
  return out
}

const SETTING_FIELDS = ['autorenew_all', 'autorenew_domain', 'autorenew_server'] as const

/** The first auto-renewal setting that is on in an answer (an item or a list of them). */
function onValueIn(results: unknown): number | undefined {
  const items: readonly unknown[] = Array.isArray(results) ? results : [results]
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue
    for (const f of SETTING_FIELDS) {
      const v: unknown = Reflect.get(item, f)
      if (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 255) return v
    }
  }
  return undefined
}

/**
 * What each account's service has lately written for an auto-renewal setting that is on, learned
 * from every answer main reads (like the product words, from the service's own data); the
 * stored lists answer after a restart until something is read.
 */
export class AutorenewOnValues {
  private readonly seen = new Map<string, number>()

  learn(accountId: string, results: unknown): void {
    const v = onValueIn(results)
    if (v !== undefined) this.seen.set(accountId, v)
  }

  get(accountId: string): number | undefined {
    return this.seen.get(accountId)
  }

  forget(accountId: string): void {
    this.seen.delete(accountId)
  }
}
