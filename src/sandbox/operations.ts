/**
 * What the sandbox accepts, operation by operation: its own model of the live service's
 * requests, never the app's endpoint table (src/shared/endpoints; an eslint rule keeps that
 * import out of src/sandbox). A sandbox that borrowed the app's rules could never disagree
 * with the app, and the app would never learn that the service takes what it refuses.
 *
 * Written from, in this order:
 * - /work/shared/API-SPEC.md section 4 (methods, paths, parameter names, what is required);
 * - the recorded exchanges in tests/fixtures/live (a save's PUT body, `params: []`);
 * - the requests published clients send the service and rely on it accepting, kept as
 *   fixtures with their sources in tests/fixtures/live/published-requests.json:
 *   a DNS save with `records` alone (no ns_type, no ttl), DS numbers sent as text,
 *   `order=asc` in lower case.
 * Where none of these says more, a value is checked only for its kind (number, text, list),
 * and the handlers answer as the service does for what is wrong with it (records.ts,
 * validate.ts, nameservers.ts).
 *
 * Parameter locations, as the spec shows them: a name in the path template is in the path;
 * GET and DELETE carry the rest in the query, POST and PUT in the JSON body. The spec does
 * not show where `domain` goes for a renewal and a WHOIS change: the body, as the app sends it.
 */
import { z } from 'zod'
import { SERVER_KINDS } from '@shared/service/constants'
import { CONTACT_FIELDS, CONTACT_ROLES, RESOURCE_FIELDS, SVCIP_REGIONS } from '@shared/service/spec-words'

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type ParamPlace = 'path' | 'query' | 'body'

// ------------------------------------------------------------ kinds of value

/**
 * An integer: a JSON number, or its digits as text. A published DS updater sends
 * `"keytag": "<digits>"` where the spec says integer (published-requests.json), and the
 * service answers TTLs as text itself, which a client putting a zone back sends again.
 */
const int = z
  .union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'an integer'),
  ])
  .transform((v) => Number(v))
const nonNegative = int.refine((n) => n >= 0, 'not negative')
const positive = int.refine((n) => n > 0, 'a positive integer')
/** 0 or 1 (the spec's integer flags). */
const flag = int.refine((n) => n === 0 || n === 1, '0 or 1').transform((n): 0 | 1 => (n === 1 ? 1 : 0))
/** An auto-renewal setting: 0 off, anything else on (the service's own sample answers 10). */
const autorenewSetting = nonNegative
const text = z.string()
const nonEmpty = z.string().trim().min(1, 'required')

/** {domain}: the numeric id or the name, as text; in a body a number is taken as the id. */
const domainRef = z.union([z.number().int().positive(), nonEmpty]).transform((v) => String(v))
/** {webid}: the numeric id, or the server's name (the service's server documentation). */
const serverRef = nonEmpty.transform((v) => (/^\d+$/.test(v) ? Number(v) : v))
/** {vipid}: an integer id from the list. */
const vipid = z.string().regex(/^\d+$/, 'an integer id').transform(Number)
const kind = z.enum(SERVER_KINDS)

/** `limit` and `page` (query text): positive integers. */
const paging = { limit: positive.optional(), page: positive.optional() }
/**
 * `order`: the service documents ASC and DESC; a published script sends `order=asc`
 * (published-requests.json), so the word is taken in any letter case here and judged by the
 * list (lists.ts `ordered`), which refuses any other word with the service's 400.
 */
const orderedPaging = { ...paging, order: text.optional() }

const contactPerson = z.object(
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- a shape built from the field list; z.object checks every value it describes
  Object.fromEntries(CONTACT_FIELDS.map((f) => [f, text.optional()])) as Record<
    (typeof CONTACT_FIELDS)[number],
    z.ZodOptional<z.ZodString>
  >,
)
const contact = z.object(
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- as above, from the role list
  Object.fromEntries(CONTACT_ROLES.map((r) => [r, contactPerson])) as Record<
    (typeof CONTACT_ROLES)[number],
    typeof contactPerson
  >,
)
const nameservers = z.array(nonEmpty)

// What several operations name alike: a server's and a domain's path, the places under a domain,
// and the handing of a domain or a free DNS zone to another user.
const serverPath = { kind, webid: serverRef }
const domainPath = { domain: domainRef }
const transferOrderPath = { ...domainPath, transferorderid: nonEmpty }
const privateNameserverPath = { ...domainPath, hostname: nonEmpty }
const ownershipChange = { ...domainPath, username: nonEmpty, message: text.optional() }
const dsRecord = z.object({ keytag: nonNegative, alg: nonNegative, digesttype: nonNegative, digest: text })

// ------------------------------------------------------------ the operations

interface Operation<P extends z.ZodType = z.ZodType> {
  method: Method
  /** Relative to /v1; `{kind}` is the server kind's path word. */
  path: string
  params: P
  /** Where the spec leaves a parameter's place open. */
  where: Readonly<Record<string, ParamPlace>>
}

function op<S extends z.ZodRawShape>(method: Method, path: string, params: S, where: Record<string, ParamPlace> = {}) {
  return { method, path, params: z.object(params), where } satisfies Operation
}

export const OPERATIONS = {
  'servers.list': op('GET', '/{kind}', { kind, ...paging }),
  'servers.create': op('POST', '/{kind}', {
    kind,
    webname: nonEmpty,
    domainname: text.optional(),
    www_flg: flag.optional(),
    wp_flg: flag.optional(),
  }),
  'servers.get': op('GET', '/{kind}/{webid}', serverPath),
  'servers.expiration.list': op('GET', '/{kind}/expiration', { kind, ...paging }),
  'servers.expiration.get': op('GET', '/{kind}/{webid}/expiration', serverPath),
  'servers.expiration.extend': op('PUT', '/{kind}/{webid}/expiration', { ...serverPath, months: positive }),
  'servers.autorenew.list': op('GET', '/{kind}/autorenew', { kind, ...paging }),
  'servers.autorenew.get': op('GET', '/{kind}/{webid}/autorenew', serverPath),
  'servers.autorenew.set': op('PUT', '/{kind}/{webid}/autorenew', {
    ...serverPath,
    autorenew_all: autorenewSetting.optional(),
    autorenew_server: autorenewSetting.optional(),
  }),
  'servers.resource.get': op('GET', '/{kind}/{webid}/resource', serverPath),
  'servers.resource.set': op('PUT', '/{kind}/{webid}/resource', {
    ...serverPath,
    type: z.enum(RESOURCE_FIELDS),
    num: nonNegative,
  }),

  'svcips.list': op('GET', '/svcips', paging),
  'svcips.register': op('POST', '/svcips', {
    servers: z.union([nonEmpty, z.array(nonEmpty).min(1)]),
    region: z.enum(SVCIP_REGIONS),
  }),
  'svcips.get': op('GET', '/svcips/{vipid}', { vipid }),
  'svcips.expiration.list': op('GET', '/svcips/expiration', {}),
  'svcips.expiration.get': op('GET', '/svcips/{vipid}/expiration', { vipid }),
  'svcips.expiration.extend': op('PUT', '/svcips/{vipid}/expiration', { vipid, months: positive }),
  'svcips.setting.set': op('PUT', '/svcips/{vipid}/setting', {
    vipid,
    webid: positive,
    domainname: nonEmpty,
    ssl_on: flag.optional(),
    certid: text.optional(),
  }),
  'svcips.cache.delete': op('DELETE', '/svcips/{vipid}/cache', { vipid }),

  'domains.list': op('GET', '/domains', orderedPaging),
  'domains.register': op('POST', '/domains', {
    registrar: text.optional(),
    sld: nonEmpty,
    tld: nonEmpty,
    years: positive.optional(),
    ns: nameservers,
    whois_proxy: flag.optional(),
    contact,
  }),
  'domains.get': op('GET', '/domains/{domain}', domainPath),
  'domains.remove': op('DELETE', '/domains/{domain}', domainPath),
  'domains.transfer.list': op('GET', '/domains/transfer', orderedPaging),
  'domains.transfer.listForDomain': op('GET', '/domains/{domain}/transfer', { ...domainPath, ...orderedPaging }),
  'domains.transfer.request': op('POST', '/domains/{domain}/transfer', {
    ...domainPath,
    registrar: text.optional(),
    authcode: nonEmpty,
    ns: nameservers.optional(),
    whois_proxy: flag.optional(),
    contact: contact.optional(),
  }),
  'domains.transfer.get': op('GET', '/domains/{domain}/transfer/{transferorderid}', transferOrderPath),
  'domains.transfer.cancel': op('DELETE', '/domains/{domain}/transfer/{transferorderid}', transferOrderPath),
  'domains.expiration.list': op('GET', '/domains/expiration', orderedPaging),
  'domains.expiration.get': op('GET', '/domains/{domain}/expiration', domainPath),
  // Years: "1 to 9 inclusive" (API-SPEC.md section 8).
  'domains.expiration.renew': op(
    'PUT',
    '/domains/expiration',
    { ...domainPath, years: int.refine((n) => n >= 1 && n <= 9, '1 to 9') },
    { domain: 'body' },
  ),
  'domains.autorenew.list': op('GET', '/domains/autorenew', orderedPaging),
  'domains.autorenew.get': op('GET', '/domains/{domain}/autorenew', domainPath),
  'domains.autorenew.set': op('PUT', '/domains/{domain}/autorenew', {
    ...domainPath,
    autorenew_all: autorenewSetting.optional(),
    autorenew_domain: autorenewSetting.optional(),
  }),
  // The spec does not show this list's path; the other lists' pattern.
  'domains.transferlock.list': op('GET', '/domains/transferlock', orderedPaging),
  'domains.transferlock.get': op('GET', '/domains/{domain}/transferlock', domainPath),
  'domains.transferlock.set': op('PUT', '/domains/{domain}/transferlock', { ...domainPath, transfer_lock: flag }),
  'domains.whois.list': op('GET', '/domains/whois', orderedPaging),
  'domains.whois.get': op('GET', '/domains/{domain}/whois', domainPath),
  'domains.whois.set': op(
    'PUT',
    '/domains/whois',
    { ...domainPath, whois_proxy: flag.optional(), contact: contact.optional() },
    { domain: 'body' },
  ),
  'domains.nameserver.list': op('GET', '/domains/nameserver', orderedPaging),
  'domains.nameserver.get': op('GET', '/domains/{domain}/nameserver', domainPath),
  'domains.nameserver.set': op('PUT', '/domains/{domain}/nameserver', { ...domainPath, ns: nameservers }),
  'domains.dns.list': op('GET', '/domains/dns', orderedPaging),
  'domains.dns.get': op('GET', '/domains/{domain}/dns', domainPath),
  /**
   * ns_type is optional: a published certbot hook saves `records` alone (with the domain's
   * name beside it, which the service ignores), and the hook relies on it working; the zone
   * keeps its current DNS service then. The words themselves are judged by the handler.
   */
  'domains.dns.set': op('PUT', '/domains/{domain}/dns', {
    ...domainPath,
    ns_type: text.optional(),
    records: text,
    ttl: nonNegative.optional(),
  }),
  'domains.dynamicdns.list': op('GET', '/domains/dynamicdns', orderedPaging),
  'domains.dynamicdns.get': op('GET', '/domains/{domain}/dynamicdns', domainPath),
  'domains.dynamicdns.set': op('PUT', '/domains/{domain}/dynamicdns', {
    ...domainPath,
    dynamicdns: flag,
    password: text.optional(),
  }),
  'domains.dnssec.list': op('GET', '/domains/dnssec', orderedPaging),
  'domains.dnssec.get': op('GET', '/domains/{domain}/dnssec', domainPath),
  'domains.dnssec.set': op('PUT', '/domains/{domain}/dnssec', { ...domainPath, ds_records: z.array(dsRecord) }),
  'domains.privatenameserver.list': op('GET', '/domains/{domain}/privatenameserver', {
    ...domainPath,
    ...orderedPaging,
  }),
  'domains.privatenameserver.create': op('POST', '/domains/{domain}/privatenameserver', {
    ...privateNameserverPath,
    ipv4: text.optional(),
    ipv6: text.optional(),
  }),
  'domains.privatenameserver.get': op('GET', '/domains/{domain}/privatenameserver/{hostname}', privateNameserverPath),
  'domains.privatenameserver.delete': op(
    'DELETE',
    '/domains/{domain}/privatenameserver/{hostname}',
    privateNameserverPath,
  ),
  'domains.localtransfer.list': op('GET', '/domains/localtransfer', orderedPaging),
  'domains.localtransfer.get': op('GET', '/domains/{domain}/localtransfer', domainPath),
  'domains.localtransfer.set': op('PUT', '/domains/{domain}/localtransfer', ownershipChange),

  'domainsearch.check': op('GET', '/domainsearch', { domainnames: nonEmpty }),

  'freedns.list': op('GET', '/freedns', orderedPaging),
  'freedns.get': op('GET', '/freedns/{domain}', domainPath),
  'freedns.register': op('POST', '/freedns', { sld: nonEmpty, tld: nonEmpty, auth: nonEmpty }),
  'freedns.set': op('PUT', '/freedns/{domain}', { ...domainPath, records: text, ttl: nonNegative.optional() }),
  'freedns.remove': op('DELETE', '/freedns/{domain}', domainPath),
  'freedns.localtransfer.list': op('GET', '/freedns/localtransfer', orderedPaging),
  'freedns.localtransfer.get': op('GET', '/freedns/{domain}/localtransfer', domainPath),
  'freedns.localtransfer.set': op('PUT', '/freedns/{domain}/localtransfer', ownershipChange),

  'logs.list': op('GET', '/logs', orderedPaging),
  'logs.get': op('GET', '/logs/{request_id}', { request_id: nonEmpty }),
} as const satisfies Record<string, Operation>

export type OperationName = keyof typeof OPERATIONS
const isOperationName = (k: string): k is OperationName => k in OPERATIONS
export const OPERATION_NAMES: readonly OperationName[] = Object.keys(OPERATIONS).filter(isOperationName)
/** An operation's parameters once the sandbox has accepted them. */
export type OperationParams<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['params']>
export type OperationDef = Operation<z.ZodObject>

const PATH_PARAM = /\{(\w+)\}/g

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((m) => m[1] ?? '')
}

/** Where a parameter of an operation is read from. */
export function paramPlace(def: Pick<OperationDef, 'method' | 'path' | 'where'>, name: string): ParamPlace {
  const explicit = def.where[name]
  if (explicit) return explicit
  if (pathParamNames(def.path).includes(name)) return 'path'
  return def.method === 'GET' || def.method === 'DELETE' ? 'query' : 'body'
}
