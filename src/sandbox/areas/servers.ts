/** Hosting servers: the same operations for each of the three kinds. */
import { RESOURCE_FIELDS } from '@shared/service/spec-words'
import { addMonths, isoDate } from '../dates'
import { fromKeys } from '../from-keys'
import { effectiveAutorenew } from '../autorenew'
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { badRequest } from '../http-error'
import { paginate } from '../lists'
import { allServers, findServer } from '../lookup'
import type { ServerRec } from '../state'
import { serverAutoOut, serverExpOut, serverOut, serverResourceOut } from '../wire'
import { isHostName } from '../validate'

export const serverHandlers: HandlersFor<EndpointsUnder<'servers'>> = {
  'servers.list': ({ p, state, paging }) => paginate(state.servers[p.kind], p, paging, serverOut),
  'servers.create': ({ p, state, now }) => {
    if (!/^[a-z][a-z0-9-]{2,31}$/.test(p.webname)) {
      throw badRequest(
        'webname must be 3 to 32 characters: lowercase letters, digits and hyphens, starting with a letter.',
      )
    }
    if (allServers(state).some((s) => s.webname === p.webname))
      throw badRequest(`The server name ${p.webname} is already taken.`)
    if (p.domainname !== undefined && p.domainname !== '' && !isHostName(p.domainname))
      throw badRequest('domainname is not a valid domain name.')
    const s: ServerRec = {
      webid: state.nextId++,
      webname: p.webname,
      paid: '0',
      starttime: isoDate(now),
      expirationdate: addMonths(isoDate(now), 1),
      // A new server comes under the account's setting for all servers of its kind.
      autorenew: state.servers[p.kind][0]?.autorenew_all ?? 0,
      autorenew_all: state.servers[p.kind][0]?.autorenew_all ?? 0,
      autorenew_server: 0,
      plan: 'S10',
      resource: fromKeys(RESOURCE_FIELDS, () => 'default'),
    }
    state.servers[p.kind].push(s)
    return { results: serverOut(s) }
  },
  'servers.get': ({ p, state }) => ({ results: serverOut(findServer(state, p.kind, p.webid)) }),
  'servers.expiration.list': ({ p, state, paging }) => paginate(state.servers[p.kind], p, paging, serverExpOut),
  'servers.expiration.get': ({ p, state }) => ({ results: serverExpOut(findServer(state, p.kind, p.webid)) }),
  'servers.expiration.extend': ({ p, state }) => {
    const s = findServer(state, p.kind, p.webid)
    s.expirationdate = addMonths(s.expirationdate, p.months)
    return { results: serverExpOut(s) }
  },
  'servers.autorenew.list': ({ p, state, paging }) => paginate(state.servers[p.kind], p, paging, serverAutoOut),
  'servers.autorenew.get': ({ p, state }) => ({ results: serverAutoOut(findServer(state, p.kind, p.webid)) }),
  'servers.autorenew.set': ({ p, state }) => {
    const s = findServer(state, p.kind, p.webid)
    // autorenew_all is the account's setting for every server of the kind; autorenew is what is in force.
    const all = state.servers[p.kind]
    if (p.autorenew_all !== undefined) for (const x of all) x.autorenew_all = p.autorenew_all
    if (p.autorenew_server !== undefined) s.autorenew_server = p.autorenew_server
    for (const x of p.autorenew_all !== undefined ? all : [s])
      x.autorenew = effectiveAutorenew(x.autorenew_all, x.autorenew_server)
    return { results: serverAutoOut(s) }
  },
  'servers.resource.get': ({ p, state }) => ({ results: serverResourceOut(findServer(state, p.kind, p.webid)) }),
  'servers.resource.set': ({ p, state }) => {
    const s = findServer(state, p.kind, p.webid)
    if (p.num > 100_000) throw badRequest('num is larger than the plan allows.')
    s.resource[p.type] = p.num
    return { results: { webid: String(s.webid), webname: s.webname, [p.type]: p.num } }
  },
}
