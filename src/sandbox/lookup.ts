/** Finding things in the state by what a request names them with; a miss is the spec's 404. */
import type { ServerKind } from '@shared/service/constants'
import { notFound, unknownDomain } from './http-error'
import type { DomainRec, FreeDnsRec, SandboxState, ServerRec, SvcipRec } from './state'

export function allServers(state: SandboxState): ServerRec[] {
  return Object.values(state.servers).flat()
}

/**
 * {webid} of a server path, as the service's server documentation has it: the server's numeric
 * id or its name (webname). A value of digits only is an id; anything else is a name, matched
 * as written. Only servers of the path's kind are looked at; neither is the spec's 404.
 */
export function findServer(state: SandboxState, kind: ServerKind, webid: number | string): ServerRec {
  const value = String(webid)
  const s = /^\d+$/.test(value)
    ? state.servers[kind].find((x) => x.webid === Number(value))
    : state.servers[kind].find((x) => x.webname === value)
  if (!s) throw notFound(`Server ${value}`)
  return s
}

export function findSvcip(state: SandboxState, vipid: number): SvcipRec {
  const v = state.svcips.find((x) => x.vipid === vipid)
  if (!v) throw notFound(`Svcip ${vipid}`)
  return v
}

/** {domain} is the numeric id or the name; one the account does not hold is "invalid", as the service says. */
function findByIdOrName<T extends { domainid: number; domainname: string }>(items: T[], domain: string): T {
  const key = domain.toLowerCase()
  const found = /^\d+$/.test(key)
    ? items.find((x) => x.domainid === Number(key))
    : items.find((x) => x.domainname === key)
  if (!found) throw unknownDomain(domain)
  return found
}

export const findDomain = (state: SandboxState, domain: string): DomainRec => findByIdOrName(state.domains, domain)
export const findFree = (state: SandboxState, domain: string): FreeDnsRec => findByIdOrName(state.freedns, domain)

/** Names that the sandbox treats as registered elsewhere, so search shows both outcomes. */
function takenElsewhere(name: string): boolean {
  return /^(example|google|taken|test)\./.test(name) || name.startsWith('taken')
}

/** Whether a domain name is registered already: in this account, or (as the sandbox pretends) by someone else. */
export function isRegistered(state: SandboxState, name: string): boolean {
  return state.domains.some((d) => d.domainname === name) || takenElsewhere(name)
}
