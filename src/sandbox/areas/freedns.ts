/** Free DNS: records the service serves for domains registered elsewhere. */
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { badRequest, rejectIf } from '../http-error'
import { paginate, ordered } from '../lists'
import { findFree } from '../lookup'
import { changeOwner, checkUsername } from '../ownership'
import type { FreeDnsRec } from '../state'
import { keptRecords, keptTtl, refusedRecords } from '../records'
import { freeOut, ownerOut, ref } from '../wire'
import { splitRegistrable } from '../validate'

const AUTH_METHODS = ['txt', 'email', 'file']

export const freeDnsHandlers: HandlersFor<EndpointsUnder<'freedns'>> = {
  'freedns.list': ({ p, state, paging }) => paginate(ordered(state.freedns, p.order), p, paging, freeOut),
  'freedns.get': ({ p, state }) => ({ results: freeOut(findFree(state, p.domain)) }),
  'freedns.register': ({ p, state }) => {
    const name = `${p.sld}.${p.tld}`.toLowerCase()
    if (!splitRegistrable(name)) throw badRequest(`${name} is not a valid domain name.`)
    if (!AUTH_METHODS.includes(p.auth)) throw badRequest('auth must be one of txt, email or file.')
    if (state.freedns.some((f) => f.domainname === name))
      throw badRequest(`${name} is already registered for free DNS.`)
    const f: FreeDnsRec = {
      domainid: state.nextId++,
      domainname: name,
      records: '',
      ttl: 3600,
      auth: p.auth,
      username: state.username,
      ownerMessage: '',
    }
    state.freedns.push(f)
    return { results: freeOut(f) }
  },
  'freedns.set': ({ p, state, service }) => {
    const f = findFree(state, p.domain)
    rejectIf(refusedRecords(p.records))
    f.records = keptRecords(p.records, service)
    if (p.ttl !== undefined) f.ttl = keptTtl(p.ttl, service)
    // As a domain's DNS save: the answer repeats the request.
    return { results: { ...ref(f), records: p.records, ...(p.ttl !== undefined ? { ttl: p.ttl } : {}) } }
  },
  'freedns.remove': ({ p, state }) => {
    const f = findFree(state, p.domain)
    state.freedns.splice(state.freedns.indexOf(f), 1)
    return { results: ref(f) }
  },
  'freedns.localtransfer.list': ({ p, state, paging }) =>
    paginate(
      ordered(
        state.freedns.map((f) => ownerOut(f)),
        p.order,
      ),
      p,
      paging,
    ),
  'freedns.localtransfer.get': ({ p, state }) => ({ results: ownerOut(findFree(state, p.domain)) }),
  'freedns.localtransfer.set': ({ p, state }) => {
    const f = findFree(state, p.domain)
    checkUsername(p.username)
    return { results: changeOwner(f, p) }
  },
}
