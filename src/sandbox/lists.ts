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

/**
 * order, as the service documents it: ASC or DESC over its own sort key (here the order the
 * items were made in; for the log, arrival). Any other word is refused.
 */
export function ordered<T>(items: T[], order: string | undefined): T[] {
  if (order === undefined) return items
  const o = order.trim().toUpperCase()
  if (o !== 'ASC' && o !== 'DESC') throw badRequest('order must be ASC or DESC.')
  return o === 'ASC' ? items : [...items].reverse()
}
