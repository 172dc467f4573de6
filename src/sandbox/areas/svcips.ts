/** Svcips: the service's IP-address product, each bound to a server. */
import { addMonths, isoDate } from '../dates'
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { badRequest } from '../http-error'
import { paginate } from '../lists'
import { allServers, findSvcip } from '../lookup'
import type { SvcipRec } from '../state'
import { svcipExpOut, svcipOut } from '../wire'
import { isHostName } from '../validate'

export const svcipHandlers: HandlersFor<EndpointsUnder<'svcips'>> = {
  'svcips.list': ({ p, state, paging }) => paginate(state.svcips, p, paging, svcipOut),
  'svcips.register': ({ p, state, now }) => {
    const names = Array.isArray(p.servers) ? p.servers : [p.servers]
    const all = allServers(state)
    const servers = names.map((n) => {
      const s = all.find((x) => x.webname === n || String(x.webid) === n)
      if (!s) throw badRequest(`There is no server named ${n} in this account.`)
      return s
    })
    const created = servers.map((s) => {
      const v: SvcipRec = {
        vipid: state.nextId++,
        vipname: `vip${String(state.svcips.length + 1).padStart(3, '0')}`,
        webname: s.webname,
        domainname: '',
        paid: '0',
        starttime: isoDate(now),
        expirationdate: addMonths(isoDate(now), 1),
        region: p.region,
        ssl_on: 0,
        certid: '',
        webid: s.webid,
      }
      state.svcips.push(v)
      return svcipOut(v)
    })
    return { results: Array.isArray(p.servers) ? created : created[0] }
  },
  'svcips.get': ({ p, state }) => ({ results: svcipOut(findSvcip(state, p.vipid)) }),
  'svcips.expiration.list': ({ state }) => ({ results: state.svcips.map(svcipExpOut) }),
  'svcips.expiration.get': ({ p, state }) => ({ results: svcipExpOut(findSvcip(state, p.vipid)) }),
  'svcips.expiration.extend': ({ p, state }) => {
    const v = findSvcip(state, p.vipid)
    v.expirationdate = addMonths(v.expirationdate, p.months)
    return { results: svcipExpOut(v) }
  },
  'svcips.setting.set': ({ p, state }) => {
    const v = findSvcip(state, p.vipid)
    const server = allServers(state).find((s) => s.webid === p.webid)
    if (!server) throw badRequest(`There is no server with webid ${p.webid} in this account.`)
    if (!isHostName(p.domainname)) throw badRequest('domainname is not a valid domain name.')
    v.webid = server.webid
    v.webname = server.webname
    v.domainname = p.domainname
    if (p.ssl_on !== undefined) v.ssl_on = p.ssl_on
    if (p.certid !== undefined) v.certid = p.certid
    if (v.ssl_on && !v.certid) throw badRequest('certid is required when ssl_on is 1.')
    return { results: svcipOut(v) }
  },
  'svcips.cache.delete': ({ p, state }) => {
    const v = findSvcip(state, p.vipid)
    return { results: { vipid: String(v.vipid), vipname: v.vipname } }
  },
}
