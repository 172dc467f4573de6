/** Paged and ordered lists, as every list endpoint of the spec answers them. */
import type { HandlerResult, PagingOptions } from './handler-types'
import { badRequest } from './http-error'

/** One page of a list; `out` maps only the page's items to their wire shape. */
export function paginate<T>(
  items: T[],
  p: { limit?: number | undefined; page?: number | undefined },
  opts: PagingOptions,
  out: (item: T) => unknown = (x) => x,
): HandlerResult {
  const limit = Math.min(p.limit ?? opts.defaultPageSize, opts.maxPageSize)
  const page = p.page ?? 1
  const results = items.slice((page - 1) * limit, page * limit).map(out)
  const max = opts.pagingMax === 'total' ? items.length : Math.ceil(items.length / limit)
  return { results, paging: { max, page, limit } }
}

const ORDER_FIELDS = ['domainid', 'domainname', 'expirationdate', 'registrar', 'datetime', 'starttime', 'request_id', 'method', 'path']

/** order: a field name, optionally prefixed with '-' or followed by ' desc' for descending. */
export function ordered<T>(items: T[], order: string | undefined): T[] {
  if (!order) return items
  const m = /^(-)?([a-z_]+)(?:\s+(asc|desc))?$/i.exec(order.trim())
  const field = m?.[2]?.toLowerCase()
  if (!m || !field || !ORDER_FIELDS.includes(field)) {
    throw badRequest(`order must be one of ${ORDER_FIELDS.join(', ')}, optionally prefixed with - for descending.`)
  }
  const desc = m[1] === '-' || m[3]?.toLowerCase() === 'desc'
  const key = (x: T) => (x as Record<string, unknown>)[field]
  return [...items].sort((a, b) => {
    const ka = key(a)
    const kb = key(b)
    const c = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka ?? '').localeCompare(String(kb ?? ''))
    return desc ? -c : c
  })
}
