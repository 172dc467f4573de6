/** The API request log: every request the sandbox answered (see the core), newest first unless asked for ASC. */
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { notFound } from '../http-error'
import { paginate, ordered } from '../lists'

export const logHandlers: HandlersFor<EndpointsUnder<'logs'>> = {
  'logs.list': ({ p, state, paging }) => {
    // Kept in arrival order (datetime has one-second resolution, so ties keep their order); newest first by default.
    return paginate(ordered(state.logs, p.order ?? 'DESC'), p, paging)
  },
  'logs.get': ({ p, state }) => {
    const entry = state.logs.find((l) => l.request_id === p.request_id)
    if (!entry) throw notFound(`Log entry ${p.request_id}`)
    return { results: entry }
  },
}
