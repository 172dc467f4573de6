/**
 * The rows of "Expiring soon": each account is read in parts (domains, service IPs, each server
 * kind), from what was stored or from the service, and each item becomes a row that says how to
 * open and renew it.
 */
import type { Result } from '../../data/bridge'
import type { AccountApi } from '../../data/account-api'
import { accountName, kindLabel } from '../../lib/text/account-text'
import { serverLink } from '../../lib/data/server-link'
import { daysUntil } from '../../lib/data/expiry'
import type { ReminderItemRef } from '../../composables/useOpenReminders'
import { t } from '../../i18n'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import type { AccountView } from '@shared/accounts'
import type { PagedInput, PagedItem } from '@shared/endpoints/table'

export type Part = 'domains' | 'svcips' | `servers.${ServerKind}`
/** The server kind a servers part is of ('a' for a part that is not one, which no caller passes). */
const kindOfPart = (part: Part): ServerKind => SERVER_KINDS.find((k) => part === `servers.${k}`) ?? 'a'
export const PARTS: readonly Part[] = ['domains', 'svcips', ...SERVER_KINDS.map((k) => `servers.${k}` as const)]

/** What renewing a row sends: a domain by years, a server or service IP by months. */
type Renewal =
  { op: 'domain'; domain: string } | { op: 'server'; kind: ServerKind; webid: number } | { op: 'svcip'; vipid: number }

export type Row = {
  key: string
  account: string
  accountId: string
  part: Part
  type: string
  name: string
  date: string
  days: number
  link: string
  renewal: Renewal
  /** The item as its reminder names it (reminders.open). */
  item: ReminderItemRef
}

export const partLabel = (a: AccountView | undefined, part: Part) =>
  part === 'domains' ? t('nav.domains') : part === 'svcips' ? t('nav.svcips') : kindLabel(a, kindOfPart(part))

export async function readPart(api: AccountApi, a: AccountView, part: Part, stored = false): Promise<Result<Row[]>> {
  // From the portfolio store (what was last read) or from the service.
  const list = async <N extends 'domains.expiration.list' | 'servers.expiration.list'>(
    name: N,
    params: PagedInput<N>,
  ): Promise<Result<PagedItem<N>[]>> => {
    if (!stored) return api.listAll(name, params)
    const r = await api.stored(name, params)
    return r.ok ? { ok: true, value: r.value?.items ?? [] } : r
  }
  const account = accountName(a)
  const type = partLabel(a, part)
  const row = (name: string, date: string, link: string, renewal: Renewal): Row[] => {
    const days = daysUntil(date)
    const item: ReminderItemRef =
      renewal.op === 'domain'
        ? { accountId: a.id, kind: 'domain', id: renewal.domain }
        : renewal.op === 'server'
          ? { accountId: a.id, kind: 'server', id: String(renewal.webid), serverKind: renewal.kind }
          : { accountId: a.id, kind: 'svcip', id: String(renewal.vipid) }
    return days === undefined
      ? []
      : [
          {
            key: `${a.id}:${part}:${name}`,
            account,
            accountId: a.id,
            part,
            type,
            name,
            date,
            days,
            link,
            renewal,
            item,
          },
        ]
  }
  if (part === 'domains') {
    const r = await list('domains.expiration.list', {})
    return r.ok
      ? {
          ok: true,
          value: r.value.flatMap((d) =>
            row(d.domainname, d.expirationdate, `/domains/${encodeURIComponent(d.domainname)}`, {
              op: 'domain',
              domain: d.domainname,
            }),
          ),
        }
      : r
  }
  if (part === 'svcips') {
    // Not a paged list, so not in the store: read from the service only.
    if (stored) return { ok: true, value: [] }
    const r = await api.call('svcips.expiration.list', {})
    return r.ok
      ? {
          ok: true,
          value: r.value.flatMap((v) =>
            row(v.vipname, v.expirationdate, `/svcips/${v.vipid}`, { op: 'svcip', vipid: Number(v.vipid) }),
          ),
        }
      : r
  }
  const kind = kindOfPart(part)
  const r = await list('servers.expiration.list', { kind })
  return r.ok
    ? {
        ok: true,
        value: r.value.flatMap((s) =>
          row(s.webname, s.expirationdate, serverLink(kind, s), { op: 'server', kind, webid: Number(s.webid) }),
        ),
      }
    : r
}
