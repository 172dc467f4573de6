/**
 * One sample call of every operation of API-SPEC.md, with the method, path and body the
 * spec says it must send, written out by hand. Shared by the client contract test and
 * the IPC "every channel" test.
 */
import type { ApiClient } from '../../src/main/http'
import type { EndpointInput, EndpointName } from '@shared/endpoints/table'
import type { Sandbox } from '../../src/sandbox'

export interface Fixture {
  sb: Sandbox
  webidB: number
  vipid: number
  domain: string
  domainId: number
  transfer: { domain: string; id: string }
  pns: { domain: string; hostname: string }
  free: string
  logId: string
}

export interface Sample<N extends EndpointName> {
  input: EndpointInput<N>
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path after the base URL's /v1, with the query string if any. */
  path: string
  /** The JSON body expected, if the call has one. */
  body?: unknown
}

const contact = {
  registrant: {
    firstname: 'Taro',
    lastname: 'Yamada',
    country: 'JP',
    address1: '1-1 Marunouchi',
    phone: '+81.312345678',
  },
  admin: { firstname: 'Taro', lastname: 'Yamada', country: 'JP', address1: '1-1 Marunouchi', phone: '+81.312345678' },
  tech: { firstname: 'Taro', lastname: 'Yamada', country: 'JP', address1: '1-1 Marunouchi', phone: '+81.312345678' },
  billing: { firstname: 'Taro', lastname: 'Yamada', country: 'JP', address1: '1-1 Marunouchi', phone: '+81.312345678' },
}
const ns = ['ns1.svc1.example.net', 'ns2.svc1.example.net']
const ds = { keytag: 12345, alg: 13, digesttype: 2, digest: 'ab'.repeat(32) }

/** A typed map: leaving out an endpoint of the table is a compile error. */
export const samples: { [N in EndpointName]: (f: Fixture) => Sample<N> } = {
  'servers.list': () => ({
    input: { kind: 'a', limit: 5, page: 2 },
    method: 'GET',
    path: '/webservers?limit=5&page=2',
  }),
  'servers.create': () => ({
    input: { kind: 'c', webname: 'newsite1', domainname: 'newsite.example.com', www_flg: 1, wp_flg: 0 },
    method: 'POST',
    path: '/cloudservers',
    body: { webname: 'newsite1', domainname: 'newsite.example.com', www_flg: 1, wp_flg: 0 },
  }),
  'servers.get': (f) => ({ input: { kind: 'b', webid: f.webidB }, method: 'GET', path: `/managedservers/${f.webidB}` }),
  'servers.expiration.list': () => ({ input: { kind: 'b' }, method: 'GET', path: '/managedservers/expiration' }),
  'servers.expiration.get': (f) => ({
    input: { kind: 'b', webid: f.webidB },
    method: 'GET',
    path: `/managedservers/${f.webidB}/expiration`,
  }),
  'servers.expiration.extend': (f) => ({
    input: { kind: 'b', webid: f.webidB, months: 3 },
    method: 'PUT',
    path: `/managedservers/${f.webidB}/expiration`,
    body: { months: 3 },
  }),
  'servers.autorenew.list': () => ({ input: { kind: 'c' }, method: 'GET', path: '/cloudservers/autorenew' }),
  'servers.autorenew.get': (f) => ({
    input: { kind: 'b', webid: f.webidB },
    method: 'GET',
    path: `/managedservers/${f.webidB}/autorenew`,
  }),
  'servers.autorenew.set': (f) => ({
    input: { kind: 'b', webid: f.webidB, autorenew_all: 0, autorenew_server: 1 },
    method: 'PUT',
    path: `/managedservers/${f.webidB}/autorenew`,
    body: { autorenew_all: 0, autorenew_server: 1 },
  }),
  'servers.resource.get': (f) => ({
    input: { kind: 'b', webid: f.webidB },
    method: 'GET',
    path: `/managedservers/${f.webidB}/resource`,
  }),
  'servers.resource.set': (f) => ({
    input: { kind: 'b', webid: f.webidB, type: 'db_num', num: 20 },
    method: 'PUT',
    path: `/managedservers/${f.webidB}/resource`,
    body: { type: 'db_num', num: 20 },
  }),

  'svcips.list': () => ({ input: { limit: 2 }, method: 'GET', path: '/svcips?limit=2' }),
  'svcips.register': (f) => {
    const names = f.sb.state.servers.a.slice(0, 2).map((s) => s.webname)
    return {
      input: { servers: names, region: 'WR' },
      method: 'POST',
      path: '/svcips',
      body: { servers: names, region: 'WR' },
    }
  },
  'svcips.get': (f) => ({ input: { vipid: f.vipid }, method: 'GET', path: `/svcips/${f.vipid}` }),
  'svcips.expiration.list': () => ({ input: {}, method: 'GET', path: '/svcips/expiration' }),
  'svcips.expiration.get': (f) => ({ input: { vipid: f.vipid }, method: 'GET', path: `/svcips/${f.vipid}/expiration` }),
  'svcips.expiration.extend': (f) => ({
    input: { vipid: f.vipid, months: 12 },
    method: 'PUT',
    path: `/svcips/${f.vipid}/expiration`,
    body: { months: 12 },
  }),
  'svcips.setting.set': (f) => ({
    input: { vipid: f.vipid, webid: f.webidB, domainname: 'shop.example.com', ssl_on: 1, certid: 'cert-9' },
    method: 'PUT',
    path: `/svcips/${f.vipid}/setting`,
    body: { webid: f.webidB, domainname: 'shop.example.com', ssl_on: 1, certid: 'cert-9' },
  }),
  'svcips.cache.delete': (f) => ({ input: { vipid: f.vipid }, method: 'DELETE', path: `/svcips/${f.vipid}/cache` }),

  'domains.list': () => ({
    input: { limit: 10, page: 1, order: 'DESC' },
    method: 'GET',
    path: '/domains?limit=10&page=1&order=DESC',
  }),
  'domains.register': () => ({
    input: { sld: 'brand-new', tld: 'com', years: 2, ns, whois_proxy: 1, contact },
    method: 'POST',
    path: '/domains',
    body: { sld: 'brand-new', tld: 'com', years: 2, ns, whois_proxy: 1, contact },
  }),
  'domains.get': (f) => ({ input: { domain: f.domain }, method: 'GET', path: `/domains/${f.domain}` }),
  'domains.remove': (f) => ({ input: { domain: f.domainId }, method: 'DELETE', path: `/domains/${f.domainId}` }),
  'domains.transfer.list': () => ({ input: { order: 'ASC' }, method: 'GET', path: '/domains/transfer?order=ASC' }),
  'domains.transfer.listForDomain': (f) => ({
    input: { domain: f.transfer.domain },
    method: 'GET',
    path: `/domains/${f.transfer.domain}/transfer`,
  }),
  'domains.transfer.request': () => ({
    input: { domain: 'incoming.org', authcode: 'XyZ-123', ns, whois_proxy: 0, contact },
    method: 'POST',
    path: '/domains/incoming.org/transfer',
    body: { authcode: 'XyZ-123', ns, whois_proxy: 0, contact },
  }),
  'domains.transfer.get': (f) => ({
    input: { domain: f.transfer.domain, transferorderid: f.transfer.id },
    method: 'GET',
    path: `/domains/${f.transfer.domain}/transfer/${f.transfer.id}`,
  }),
  'domains.transfer.cancel': (f) => ({
    input: { domain: f.transfer.domain, transferorderid: f.transfer.id },
    method: 'DELETE',
    path: `/domains/${f.transfer.domain}/transfer/${f.transfer.id}`,
  }),
  'domains.expiration.list': () => ({ input: {}, method: 'GET', path: '/domains/expiration' }),
  'domains.expiration.get': (f) => ({
    input: { domain: f.domain },
    method: 'GET',
    path: `/domains/${f.domain}/expiration`,
  }),
  'domains.expiration.renew': (f) => ({
    input: { domain: f.domain, years: 3 },
    method: 'PUT',
    path: '/domains/expiration',
    body: { domain: f.domain, years: 3 },
  }),
  'domains.autorenew.list': () => ({ input: {}, method: 'GET', path: '/domains/autorenew' }),
  'domains.autorenew.get': (f) => ({
    input: { domain: f.domain },
    method: 'GET',
    path: `/domains/${f.domain}/autorenew`,
  }),
  'domains.autorenew.set': (f) => ({
    input: { domain: f.domain, autorenew_all: 1, autorenew_domain: 1 },
    method: 'PUT',
    path: `/domains/${f.domain}/autorenew`,
    body: { autorenew_all: 1, autorenew_domain: 1 },
  }),
  'domains.transferlock.list': () => ({ input: {}, method: 'GET', path: '/domains/transferlock' }),
  'domains.transferlock.get': (f) => ({
    input: { domain: f.domain },
    method: 'GET',
    path: `/domains/${f.domain}/transferlock`,
  }),
  'domains.transferlock.set': (f) => ({
    input: { domain: f.domain, transfer_lock: 0 },
    method: 'PUT',
    path: `/domains/${f.domain}/transferlock`,
    body: { transfer_lock: 0 },
  }),
  'domains.whois.list': () => ({ input: {}, method: 'GET', path: '/domains/whois' }),
  'domains.whois.get': (f) => ({ input: { domain: f.domain }, method: 'GET', path: `/domains/${f.domain}/whois` }),
  'domains.whois.set': (f) => ({
    input: { domain: f.domain, whois_proxy: 0, contact },
    method: 'PUT',
    path: '/domains/whois',
    body: { domain: f.domain, whois_proxy: 0, contact },
  }),
  'domains.nameserver.list': () => ({ input: {}, method: 'GET', path: '/domains/nameserver' }),
  'domains.nameserver.get': (f) => ({
    input: { domain: f.domain },
    method: 'GET',
    path: `/domains/${f.domain}/nameserver`,
  }),
  'domains.nameserver.set': (f) => ({
    input: { domain: f.domain, ns },
    method: 'PUT',
    path: `/domains/${f.domain}/nameserver`,
    body: { ns },
  }),
  'domains.dns.list': () => ({ input: {}, method: 'GET', path: '/domains/dns' }),
  'domains.dns.get': (f) => ({ input: { domain: f.domain }, method: 'GET', path: `/domains/${f.domain}/dns` }),
  'domains.dns.set': (f) => ({
    input: { domain: f.domain, ns_type: 'svc1', records: 'a @ 192.0.2.10\nmx mail.example.com. 10', ttl: 600 },
    method: 'PUT',
    path: `/domains/${f.domain}/dns`,
    body: { ns_type: 'svc1', records: 'a @ 192.0.2.10\nmx mail.example.com. 10', ttl: 600 },
  }),
  'domains.dynamicdns.list': () => ({ input: {}, method: 'GET', path: '/domains/dynamicdns' }),
  'domains.dynamicdns.get': (f) => ({
    input: { domain: f.domain },
    method: 'GET',
    path: `/domains/${f.domain}/dynamicdns`,
  }),
  'domains.dynamicdns.set': (f) => ({
    input: { domain: f.domain, dynamicdns: 1, password: 'correct-horse' },
    method: 'PUT',
    path: `/domains/${f.domain}/dynamicdns`,
    body: { dynamicdns: 1, password: 'correct-horse' },
  }),
  'domains.dnssec.list': () => ({ input: {}, method: 'GET', path: '/domains/dnssec' }),
  'domains.dnssec.get': (f) => ({ input: { domain: f.domain }, method: 'GET', path: `/domains/${f.domain}/dnssec` }),
  'domains.dnssec.set': (f) => ({
    input: { domain: f.domain, ds_records: [ds] },
    method: 'PUT',
    path: `/domains/${f.domain}/dnssec`,
    body: { ds_records: [ds] },
  }),
  'domains.privatenameserver.list': (f) => ({
    input: { domain: f.pns.domain },
    method: 'GET',
    path: `/domains/${f.pns.domain}/privatenameserver`,
  }),
  'domains.privatenameserver.create': (f) => ({
    input: { domain: f.domain, hostname: `ns9.${f.domain}`, ipv4: '192.0.2.9', ipv6: '2001:db8::9' },
    method: 'POST',
    path: `/domains/${f.domain}/privatenameserver`,
    body: { hostname: `ns9.${f.domain}`, ipv4: '192.0.2.9', ipv6: '2001:db8::9' },
  }),
  'domains.privatenameserver.get': (f) => ({
    input: { domain: f.pns.domain, hostname: f.pns.hostname },
    method: 'GET',
    path: `/domains/${f.pns.domain}/privatenameserver/${f.pns.hostname}`,
  }),
  'domains.privatenameserver.delete': (f) => ({
    input: { domain: f.pns.domain, hostname: f.pns.hostname },
    method: 'DELETE',
    path: `/domains/${f.pns.domain}/privatenameserver/${f.pns.hostname}`,
  }),
  'domains.localtransfer.list': () => ({ input: {}, method: 'GET', path: '/domains/localtransfer' }),
  'domains.localtransfer.get': (f) => ({
    input: { domain: f.domain },
    method: 'GET',
    path: `/domains/${f.domain}/localtransfer`,
  }),
  'domains.localtransfer.set': (f) => ({
    input: { domain: f.domain, username: 'other-user', message: 'Yours now' },
    method: 'PUT',
    path: `/domains/${f.domain}/localtransfer`,
    body: { username: 'other-user', message: 'Yours now' },
  }),
  'domainsearch.check': () => ({
    input: { domainnames: 'free-one.com,taken.com' },
    method: 'GET',
    path: '/domainsearch?domainnames=free-one.com%2Ctaken.com',
  }),

  'freedns.list': () => ({ input: {}, method: 'GET', path: '/freedns' }),
  'freedns.get': (f) => ({ input: { domain: f.free }, method: 'GET', path: `/freedns/${f.free}` }),
  'freedns.register': () => ({
    input: { sld: 'elsewhere', tld: 'net', auth: 'txt' },
    method: 'POST',
    path: '/freedns',
    body: { sld: 'elsewhere', tld: 'net', auth: 'txt' },
  }),
  'freedns.set': (f) => ({
    input: { domain: f.free, records: 'a www 192.0.2.44', ttl: 300 },
    method: 'PUT',
    path: `/freedns/${f.free}`,
    body: { records: 'a www 192.0.2.44', ttl: 300 },
  }),
  'freedns.remove': (f) => ({ input: { domain: f.free }, method: 'DELETE', path: `/freedns/${f.free}` }),
  'freedns.localtransfer.list': () => ({ input: {}, method: 'GET', path: '/freedns/localtransfer' }),
  'freedns.localtransfer.get': (f) => ({
    input: { domain: f.free },
    method: 'GET',
    path: `/freedns/${f.free}/localtransfer`,
  }),
  'freedns.localtransfer.set': (f) => ({
    input: { domain: f.free, username: 'friend-user', message: 'hi' },
    method: 'PUT',
    path: `/freedns/${f.free}/localtransfer`,
    body: { username: 'friend-user', message: 'hi' },
  }),

  'logs.list': () => ({ input: { limit: 5, order: 'DESC' }, method: 'GET', path: '/logs?limit=5&order=DESC' }),
  'logs.get': (f) => ({ input: { request_id: f.logId }, method: 'GET', path: `/logs/${f.logId}` }),
}

/** The sample call of one operation, typed by its name (also when the name is only known at run time). */
export function sampleOf<N extends EndpointName>(name: N, f: Fixture): Sample<N> {
  const sample: (f: Fixture) => Sample<N> = samples[name]
  return sample(f)
}

/** Ids from the seeded sandbox that the samples refer to; logs one request so logs.get has an id. */
export async function makeFixture(sb: Sandbox, client: ApiClient): Promise<Fixture> {
  const pnsDomain = sb.state.domains.find((d) => d.privateNs.length > 0)
  const firstTransfer = sb.state.transfers[0]
  if (!pnsDomain || !firstTransfer) throw new Error('seed lacks a private nameserver or transfer')
  const env = await client.send('servers.list', { kind: 'a' })
  const d = sb.state.domains[5]!
  return {
    sb,
    webidB: sb.state.servers.b[0]!.webid,
    vipid: sb.state.svcips[0]!.vipid,
    domain: d.domainname,
    domainId: d.domainid,
    transfer: { domain: firstTransfer.domainname, id: firstTransfer.transferorderid },
    pns: { domain: pnsDomain.domainname, hostname: pnsDomain.privateNs[0]!.hostname },
    free: sb.state.freedns[0]!.domainname,
    logId: env.requestId ?? '',
  }
}
