/** The API request log: every request the sandbox answered (see the core), newest first. */
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { notFound } from '../http-error'
import { paginate, ordered } from '../lists'

export const logHandlers: HandlersFor<EndpointsUnder<'logs'>> = {
  'logs.list': ({ p, state, paging }) => {
    // The log is kept in arrival order; datetime has one-second resolution, so date order uses
    // arrival order itself (ties would otherwise come out in any order). Newest first by default.
    const o = p.order?.trim() ?? ''
    const byDate = o === '' || /^-?datetime(\s+(asc|desc))?$/i.test(o)
    const ascending = byDate && o !== '' && !o.startsWith('-') && !/desc$/i.test(o)
    const items = byDate ? (ascending ? state.logs : [...state.logs].reverse()) : ordered(state.logs, o)
    return paginate(items, p, paging)
  },
  'logs.get': ({ p, state }) => {
    const entry = state.logs.find((l) => l.request_id === p.request_id)
    if (!entry) throw notFound(`Log entry ${p.request_id}`)
    return { results: entry }
  },
}
