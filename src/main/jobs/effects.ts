/**
 * What each item of a job will change, read from the service when the job is prepared, so the
 * confirmation can state it: for an extension or a renewal, the expiration date now and after.
 * A date that cannot be read is said to be unreadable; it never stops the confirmation.
 */
import type { ApiClient } from '../http'
import { addMonthsIso, todayIso } from '@shared/formats/dates'
import type { WriteEndpointName } from '@shared/endpoints/names'
import type { ItemEffect } from '@shared/jobs'
import { factsOf } from './operations'

type Params = Record<string, unknown>
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v))
const str = (v: unknown) => (typeof v === 'string' ? v : String(v))

/** Above this many renewals, the account-wide expiration list is read once instead of each domain. */
const READ_EACH_UP_TO = 20

async function settle<T>(items: Params[], read: (p: Params) => Promise<T>): Promise<(T | undefined)[]> {
  const out: (T | undefined)[] = []
  for (let i = 0; i < items.length; i += 4) {
    const batch = await Promise.allSettled(items.slice(i, i + 4).map(read))
    for (const r of batch) out.push(r.status === 'fulfilled' ? r.value : undefined)
  }
  return out
}

const moved = (from: string | undefined, months: number): ItemEffect =>
  from ? { from, to: addMonthsIso(from, months) } : { unreadable: true }

/**
 * An item's expiry date as the service holds it now (a renewal's domain, an extension's server or
 * service IP), for a precondition read again (preconditions.ts); undefined when the operation has
 * none or it cannot be read.
 */
export async function expiryNow(
  client: ApiClient,
  operation: WriteEndpointName,
  p: Params,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const opts = signal ? { signal } : {}
  try {
    switch (factsOf(operation).effect) {
      case 'renewal':
        return (await client.call('domains.expiration.get', { domain: str(p.domain) }, opts)).expirationdate
      case 'serverExtension': {
        const kind = str(p.kind)
        if (kind !== 'a' && kind !== 'b' && kind !== 'c') return undefined
        return (
          await client.call(
            'servers.expiration.get',
            { kind, webid: typeof p.webid === 'number' ? p.webid : str(p.webid) },
            opts,
          )
        ).expirationdate
      }
      case 'svcipExtension':
        return (await client.call('svcips.expiration.get', { vipid: num(p.vipid) }, opts)).expirationdate
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}

export async function effectsOf(
  client: ApiClient,
  operation: WriteEndpointName,
  items: Params[],
): Promise<(ItemEffect | undefined)[]> {
  const effect = factsOf(operation).effect
  switch (effect) {
    case 'renewal': {
      let current: (string | undefined)[]
      if (items.length <= READ_EACH_UP_TO) {
        current = await settle(
          items,
          async (p) => (await client.call('domains.expiration.get', { domain: str(p.domain) })).expirationdate,
        )
      } else {
        const all = await client.listAll('domains.expiration.list', {}).catch(() => [])
        const byName = new Map(
          all.flatMap((d) => [
            [d.domainname.toLowerCase(), d.expirationdate],
            [String(d.domainid), d.expirationdate],
          ]),
        )
        current = items.map((p) => byName.get(str(p.domain).toLowerCase()))
      }
      return items.map((p, i) => moved(current[i], 12 * num(p.years)))
    }
    case 'serverExtension': {
      const current = await settle(items, async (p) => {
        const kind = str(p.kind)
        if (kind !== 'a' && kind !== 'b' && kind !== 'c') return undefined
        // The server as the item names it: its id, or its name (kept as text, never made a number).
        const webid = typeof p.webid === 'number' ? p.webid : str(p.webid)
        return (await client.call('servers.expiration.get', { kind, webid })).expirationdate
      })
      return items.map((p, i) => moved(current[i], num(p.months)))
    }
    case 'svcipExtension': {
      const current = await settle(
        items,
        async (p) => (await client.call('svcips.expiration.get', { vipid: num(p.vipid) })).expirationdate,
      )
      return items.map((p, i) => moved(current[i], num(p.months)))
    }
    case 'registration':
      return items.map((p) => ({ to: addMonthsIso(todayIso(), 12 * num(p.years ?? 1)) }))
    case undefined:
      return items.map(() => undefined)
  }
}
