/** Domain search: which names are free to register. */
import type { EndpointsUnder, HandlersFor } from '../handler-types'
import { badRequest } from '../http-error'
import { isRegistered } from '../lookup'
import { splitRegistrable } from '../validate'

export const domainSearchHandlers: HandlersFor<EndpointsUnder<'domainsearch'>> = {
  'domainsearch.check': ({ p, state }) => {
    const names = p.domainnames
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean)
    if (names.length > 50) throw badRequest('At most 50 domain names can be checked at once.')
    return {
      results: names.map((name) => {
        const parts = splitRegistrable(name)
        if (!parts) return { domainname: name, sld: '', tld: '', status: '400 Invalid domain name' }
        const status = isRegistered(state, name) ? '211 Domain name not available' : '210 Domain name available'
        return { domainname: name, ...parts, status }
      }),
    }
  },
}
