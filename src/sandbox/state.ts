/**
 * The sandbox's data: what one customer account of the service holds. Records are kept as
 * the service would store them; the wire shapes (wire.ts) are derived from them per answer.
 */
import type { ServerKind } from '@shared/service/constants'
import {
  CONTACT_FIELDS,
  type ContactRole,
  type NsType,
  type ResourceField,
  type SvcipRegion,
} from '@shared/service/spec-words'
import { fromKeys } from './from-keys'

export interface ServerRec {
  webid: number
  webname: string
  paid: string
  starttime: string
  expirationdate: string
  autorenew: number
  autorenew_all: number
  autorenew_server: number
  plan: string
  resource: Record<ResourceField, 'default' | number>
}

export interface SvcipRec {
  vipid: number
  vipname: string
  webname: string
  domainname: string
  paid: string
  starttime: string
  expirationdate: string
  region: SvcipRegion
  ssl_on: number
  certid: string
  webid: number
}

/** One contact as the service answers it: every field, as text (empty when not given). */
export type ContactPerson = Record<(typeof CONTACT_FIELDS)[number], string>
export type ContactRec = Record<ContactRole, ContactPerson>

export interface DsRec {
  keytag: number
  alg: number
  digesttype: number
  digest: string
}

export interface ZoneRec {
  records: string
  ttl: number
}

export interface DomainRec {
  domainid: number
  domainname: string
  registrar: string
  expirationdate: string
  autorenew: number
  autorenew_all: number
  autorenew_domain: number
  transfer_lock: number
  authcode: string
  ns: string[]
  whoisproxy: number
  contact: ContactRec
  dns: Record<NsType, ZoneRec>
  /** A product word the app does not know, shown in ns_type for this domain (tests set it). */
  nsTypeWord?: string
  dynamicdns: number
  ddnsPassword: string
  ds: DsRec[]
  privateNs: { hostname: string; ipv4: string; ipv6: string }[]
  username: string
  ownerMessage: string
}

export interface TransferRec {
  domainid: number
  domainname: string
  transferorderid: string
  status: 'STAY' | 'FAILED'
  expirationdate: string
  failurereason: string
  starttime: string
}

export interface FreeDnsRec {
  domainid: number
  domainname: string
  records: string
  ttl: number
  auth: string
  username: string
  ownerMessage: string
}

export interface LogRec {
  request_id: string
  datetime: string
  method: string
  path: string
  request: string
  response: string
  addr: string
}

export interface SandboxState {
  version: 1
  nextId: number
  username: string
  servers: Record<ServerKind, ServerRec[]>
  svcips: SvcipRec[]
  domains: DomainRec[]
  transfers: TransferRec[]
  freedns: FreeDnsRec[]
  logs: LogRec[]
}

export const DEFAULT_REGISTRAR = 'REG1'

export function blankPerson(): ContactPerson {
  return fromKeys(CONTACT_FIELDS, () => '')
}
