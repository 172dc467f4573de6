/**
 * The answers' wire shapes, as API-SPEC.md section 2 gives them, in one place to compare with
 * it: webid and vipid as strings, ttl, whoisproxy and dynamicdns as strings on reads,
 * ds_records as a single object. Handlers store records (state.ts) and answer these.
 */
import { nsFlavour } from './nameservers'
import type { ServiceBehaviour } from './behaviour'
import type { NsType } from '@shared/service/spec-words'
import type { DomainRec, FreeDnsRec, ServerRec, SvcipRec } from './state'

// ------------------------------------------------------------ servers

export const serverOut = (s: ServerRec) => ({
  webid: String(s.webid),
  webname: s.webname,
  paid: s.paid,
  starttime: s.starttime,
  expirationdate: s.expirationdate,
  autorenew: s.autorenew,
  autorenew_all: s.autorenew_all,
  autorenew_server: s.autorenew_server,
  plan: s.plan,
})
export const serverExpOut = (s: ServerRec) => ({
  webid: String(s.webid),
  webname: s.webname,
  expirationdate: s.expirationdate,
})
export const serverAutoOut = (s: ServerRec) => ({
  webid: String(s.webid),
  webname: s.webname,
  autorenew: s.autorenew,
  autorenew_all: s.autorenew_all,
  autorenew_server: s.autorenew_server,
})
export const serverResourceOut = (s: ServerRec) => ({ webid: String(s.webid), webname: s.webname, ...s.resource })

// ------------------------------------------------------------ svcips

export const svcipOut = (v: SvcipRec) => ({
  vipid: String(v.vipid),
  vipname: v.vipname,
  webname: v.webname,
  domainname: v.domainname,
  paid: v.paid,
  starttime: v.starttime,
  expirationdate: v.expirationdate,
  region: v.region,
})
export const svcipExpOut = (v: SvcipRec) => ({
  vipid: String(v.vipid),
  vipname: v.vipname,
  expirationdate: v.expirationdate,
})

// ------------------------------------------------------------ domains and free DNS

export const ref = (d: { domainid: number; domainname: string }) => ({ domainid: d.domainid, domainname: d.domainname })
export const domainItemOut = (d: DomainRec) => ({
  domainid: d.domainid,
  domainname: d.domainname,
  registrar: d.registrar,
  expirationdate: d.expirationdate,
  autorenew: d.autorenew,
  autorenew_all: d.autorenew_all,
  autorenew_domain: d.autorenew_domain,
})
export const domainOut = (d: DomainRec) => ({
  ...domainItemOut(d),
  status: d.transfer_lock ? 'TRANSFER_LOCK' : '',
  transfer_lock: d.transfer_lock,
  ns: d.ns,
  whoisproxy: String(d.whoisproxy),
  contact: d.contact,
})
export const expOut = (d: DomainRec) => ({ ...ref(d), expirationdate: d.expirationdate })
export const autoOut = (d: DomainRec) => ({
  ...ref(d),
  autorenew: d.autorenew,
  autorenew_all: d.autorenew_all,
  autorenew_domain: d.autorenew_domain,
})
export const lockOut = (d: DomainRec) => ({ ...ref(d), transfer_lock: d.transfer_lock, authcode: d.authcode })
export const whoisOut = (d: DomainRec) => ({ ...ref(d), whoisproxy: String(d.whoisproxy), contact: d.contact })
export const nsOut = (d: DomainRec) => ({ ...ref(d), ns: d.ns })
/** The flavour a domain's DNS setting shows: with another company's or the registrar's nameservers, svc11 (spec). */
export const dnsFlavourOf = (d: DomainRec): NsType => (nsFlavour(d) === 'svc1' ? 'svc1' : 'svc11')
/** The DNS setting in the service's own words: ns_type is its product word (or a word a test gave the domain). */
export const dnsOut = (d: DomainRec, service: ServiceBehaviour) => {
  const t = dnsFlavourOf(d)
  return {
    ...ref(d),
    ns_type: d.nsTypeWord ?? service.nsTypeWords[t],
    records: d.dns[t].records,
    ttl: String(d.dns[t].ttl),
  }
}
export const ddnsOut = (d: DomainRec) => ({ ...ref(d), dynamicdns: String(d.dynamicdns), password: d.ddnsPassword })
/** Responses show ds_records as one DS record object (several as an array, which clients must also read). */
export const dnssecOut = (d: DomainRec) => ({
  ...ref(d),
  ds_records: d.ds.length === 1 ? d.ds[0] : d.ds.length === 0 ? {} : d.ds,
})
export const ownerOut = (
  d: { domainid: number; domainname: string; username: string; ownerMessage: string },
  withMessage = false,
) => ({
  ...ref(d),
  username: d.username,
  ...(withMessage ? { message: d.ownerMessage } : {}),
})
export const freeOut = (f: FreeDnsRec) => ({ ...ref(f), records: f.records, ttl: String(f.ttl) })
export const transferRefOut = (t: { domainid: number; domainname: string; transferorderid: string }) => ({
  domainid: t.domainid,
  domainname: t.domainname,
  transferorderid: t.transferorderid,
})
