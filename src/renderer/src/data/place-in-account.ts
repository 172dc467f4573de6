/**
 * Where the window goes when the user switches account: one account's item (a domain, a zone,
 * a server) is not the other's, and reading it from the other account ends in "not known".
 * A domain's screen stays when the other account has that domain in its stored list; every
 * other item's screen goes to its list in the other account. Screens that are not one item's
 * stay as they are.
 */
import type { RouteLocationResolved } from 'vue-router'
import { accountApi } from './account-api'

/** The list each item's screen belongs to, by the item route's pattern (router.ts). */
const LIST_OF_ITEM: Record<string, string> = {
  '/domains/:name': '/domains',
  '/dns/:name': '/dns',
  '/freedns/:name': '/freedns',
  '/svcips/:vipid(\\d+)': '/svcips',
}

const param = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''))

/** The path to show in account `accountId` instead of `route`, or undefined to stay. */
export async function placeInAccount(
  route: Pick<RouteLocationResolved, 'matched' | 'params'>,
  accountId: string,
): Promise<string | undefined> {
  const pattern = route.matched.at(-1)?.path ?? ''
  const params = Object.fromEntries(Object.entries(route.params).map(([k, v]) => [k, param(v)]))
  if (pattern.startsWith('/servers/:kind') && params.webid) return `/servers/${params.kind}`
  const list = LIST_OF_ITEM[pattern]
  if (!list) return undefined
  if (pattern === '/domains/:name' && (await hasDomain(accountId, params.name ?? ''))) return undefined
  return list
}

/** Whether the account's stored domain list holds the name (a list never read: no). */
async function hasDomain(accountId: string, name: string): Promise<boolean> {
  const r = await accountApi(accountId).stored('domains.list', {})
  return r.ok && r.value !== null && r.value.items.some((d) => d.domainname === name)
}
