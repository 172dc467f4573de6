/**
 * The endpoint table: every operation of API-SPEC.md section 4, declared once.
 *
 * It feeds the HTTP client (src/main/http), the sandbox's routes (src/sandbox),
 * the IPC contract (src/shared/ipc) and the contract tests, so no endpoint is
 * written twice. It lives in src/shared because the IPC contract derives its
 * payload schemas from it and the renderer derives its types from that.
 *
 * Parameter locations: a parameter named in the path template ({name}) goes in the
 * path; otherwise GET and DELETE send it in the query and POST and PUT in the JSON
 * body. `where` overrides that for the two parameters whose location the spec does
 * not show (see `domains.expiration.renew` and `domains.whois.set`).
 *
 * Retry: `read` operations may be retried on 503, 504 or a reset connection;
 * `write` operations are never retried, whatever they do. `confirm` marks the
 * operations that cost money, change ownership or cannot be undone: the UI always
 * asks before sending them.
 */
import { z } from 'zod'
import {
  RESOURCE_FIELDS,
  SVCIP_REGIONS,
  CONTACT_FIELDS,
  availabilitySchema,
  dnsSettingSchema,
  dnssecSchema,
  domainAutorenewSchema,
  domainExpirationSchema,
  domainListItemSchema,
  domainRefSchema,
  domainRegistrationSchema,
  domainSchema,
  dynamicDnsSchema,
  freeDnsSettingSchema,
  logEntrySchema,
  nameserverSchema,
  ownershipSchema,
  privateNameserverRefSchema,
  privateNameserverSchema,
  serverAutorenewSchema,
  serverExpirationSchema,
  serverResourceSchema,
  serverSchema,
  svcipCacheResultSchema,
  svcipExpirationSchema,
  svcipOneOrManySchema,
  svcipSchema,
  transferLockSchema,
  transferRefSchema,
  transferRequestSchema,
  whoisSchema,
} from './decoders'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type ParamLocation = 'path' | 'query' | 'body'

import { MAX_NAMESERVERS, SERVER_KINDS } from '../service/constants'
import { parseWith, type Parsed } from '../errors/field-issues'
import { HOSTNAME } from '../service/validation'
import { SERVER_REF_PATTERN, isServerId } from '../service/server-ref'
import type { EndpointName, PagedEndpointName, WriteEndpointName } from './names'
export { SERVER_KINDS } from '../service/constants'
export type { ServerKind } from '../service/constants'
export {
  ENDPOINT_NAMES,
  PAGED_ENDPOINT_NAMES,
  WRITE_ENDPOINT_NAMES,
  isWriteEndpoint,
  type EndpointName,
  type PagedEndpointName,
  type ReadEndpointName,
  type WriteEndpointName,
} from './names'

export interface EndpointDef<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  method: HttpMethod
  /** Path template relative to the base URL; `{kind}` is the server-kind path word. */
  path: string
  /** Schema of the call's parameters (path, query and body members together). */
  params: P
  /** Explicit locations for parameters whose location is not implied by the rules above. */
  where: Readonly<Record<string, ParamLocation>>
  /** Schema of `results` in the response envelope. */
  result: R
  /** The list is paged (`paging` in the envelope; `limit` and `page` in the query). */
  paged: boolean
  /**
   * Safe to retry (reads: after a network error, a 503 or a 504) or never retried (writes: the
   * service may have acted). One answer is the exception for both: a 429 says the service did
   * not act on the request, so the client waits (Retry-After, or until the account's pacer
   * finds the service's block over) and sends it again unchanged, writes included, until the
   * call's total time-out. A write whose wait
   * runs out ends as "rate limited", a plain failure: nothing was done.
   */
  retry: 'safe' | 'never'
  /** Costs money, changes ownership or cannot be undone: always confirmed by the user. */
  confirm: boolean
}

// ------------------------------------------------------------ parameter pieces

const positiveInt = z.number().int().positive()
/** Path id: the spec types vipid as an integer in paths. */
const id = z.union([positiveInt, z.string().regex(/^\d+$/, 'field.number')]).transform((v) => Number(v))
/**
 * {webid} of a server path: the numeric id or the server's name, as the service's server
 * documentation allows (the spec shows only the integer). Digits become the id as a number,
 * as before; a name is sent as it is (shared/service/server-ref.ts has the shape).
 */
const serverRef = z
  .union([positiveInt, z.string().regex(new RegExp(`^(?:${SERVER_REF_PATTERN})$`), 'field.serverRef')])
  .transform((v) => (typeof v === 'number' || isServerId(v) ? Number(v) : v))

/**
 * A value that goes into a path segment must name one thing: a value such as "", ".", "..",
 * "a/b" or one with control characters would be resolved or split by URL parsing and send the
 * request to another path (a "cancel transfer" of ".." would delete the domain). Each path
 * value is held to the shape the spec gives it; anything else is refused before sending.
 */
export function isSafePathSegment(v: string): boolean {
  return v.length > 0 && v !== '.' && v !== '..' && !/[/\\?#%\u0000-\u001f\u007f]/.test(v)
}
const hostName = z
  .string()
  .trim()
  .min(1, 'field.required')
  .max(253)
  .regex(HOSTNAME, 'field.hostName')
  .refine((v) => !v.endsWith('.') && isSafePathSegment(v), 'field.hostName')
/** {domain} accepts the numeric id or the name. */
const domainRef = z
  .union([positiveInt, z.string().regex(/^\d+$/, 'field.number'), hostName])
  .transform((v) => String(v))
/** A transfer order: registrar prefix, hyphen, alphanumerics (API-SPEC.md, Transfer request). */
const transferOrderId = z.string().regex(/^[A-Za-z0-9]{1,32}-[A-Za-z0-9]{1,64}$/, 'field.transferOrderId')
/** A request ID as the service makes them: letters, digits, and - _ . : inside, never "." or "..". */
const requestIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/, 'field.requestId')
const kind = z.enum(SERVER_KINDS)
const flag = z.union([z.literal(0), z.literal(1)])
/**
 * An auto-renewal setting: 0 is off and any other number on. The service reports and accepts 10
 * for "on" (its own sample: "autorenew":1,"autorenew_all":10,"autorenew_domain":10), so the job
 * runner sends the value the account's own data uses (see jobs/in-service-values.ts).
 */
const autorenewSetting = z.number().int().min(0).max(255)
const pageQuery = {
  limit: positiveInt.max(10_000).optional(),
  page: positiveInt.optional(),
}
/**
 * `order` takes the words the service documents, ASC and DESC (its own sort key, ascending or
 * descending); the spec leaves them out, and other words are not sent.
 */
const LIST_ORDERS = ['ASC', 'DESC'] as const
const orderedPageQuery = { ...pageQuery, order: z.enum(LIST_ORDERS).optional() }

const contactPersonInput = z.object(
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- a schema's shape built from the field list; z.object checks every value it describes
  Object.fromEntries(CONTACT_FIELDS.map((f) => [f, z.string().max(255).optional()])) as Record<
    (typeof CONTACT_FIELDS)[number],
    z.ZodOptional<z.ZodString>
  >,
)
const contactInput = z.object({
  registrant: contactPersonInput,
  admin: contactPersonInput,
  tech: contactPersonInput,
  billing: contactPersonInput,
})

// Parameters that several operations take alike.
/** The path of one server, and of one domain or free DNS zone. */
const serverPath = { kind, webid: serverRef }
const domainPath = { domain: domainRef }
/** A name to register, domain or free DNS zone: its label and its top-level domain. */
const nameParts = { sld: z.string().trim().min(1).max(63), tld: z.string().trim().min(1).max(63) }
/** A zone's records and default TTL, for a domain's DNS and a free DNS zone alike. */
const zoneRecords = { records: z.string().max(1_000_000), ttl: z.number().int().min(0).optional() }
/** Hands a domain or a free DNS zone to another user of the service. */
const ownershipChange = {
  ...domainPath,
  username: z.string().trim().min(1).max(64),
  message: z.string().max(1000).optional(),
}

const nsInput = z.array(z.string().trim().min(1).max(253)).max(MAX_NAMESERVERS)

const dsRecordInput = z.object({
  keytag: z.number().int().min(0).max(65535),
  alg: z.number().int().min(0).max(255),
  digesttype: z.number().int().min(0).max(255),
  digest: z
    .string()
    .regex(/^[0-9a-fA-F]*$/, 'field.hex')
    .max(256),
})

// ------------------------------------------------------------ builders

interface Options {
  where?: Record<string, ParamLocation>
  confirm?: boolean
}

function read<S extends z.ZodRawShape, R extends z.ZodType>(path: string, params: S, result: R, opts: Options = {}) {
  return {
    method: 'GET' as const,
    path,
    params: z.object(params),
    where: opts.where ?? {},
    result,
    paged: false as const,
    retry: 'safe' as const,
    confirm: false,
  } satisfies EndpointDef
}

/** A paged list: `limit` and `page` in the query, `paging` in the envelope. */
function readPaged<S extends z.ZodRawShape, I extends z.ZodType>(path: string, params: S, item: I, opts: Options = {}) {
  return { ...read(path, params, z.array(item), opts), paged: true as const }
}

function write<S extends z.ZodRawShape, R extends z.ZodType>(
  method: Exclude<HttpMethod, 'GET'>,
  path: string,
  params: S,
  result: R,
  opts: Options = {},
) {
  return {
    method,
    path,
    params: z.object(params),
    where: opts.where ?? {},
    result,
    paged: false,
    retry: 'never' as const,
    confirm: opts.confirm ?? false,
  } satisfies EndpointDef
}

const list = <R extends z.ZodType>(item: R) => z.array(item)

// ------------------------------------------------------------ the table

export const endpoints = {
  // Servers: the same operations for each of the three kinds; {kind} is the path word.
  'servers.list': readPaged('/{kind}', { kind, ...pageQuery }, serverSchema),
  'servers.create': write(
    'POST',
    '/{kind}',
    {
      kind,
      webname: z.string().trim().min(1).max(64),
      domainname: z.string().trim().max(253).optional(),
      www_flg: flag.optional(),
      wp_flg: flag.optional(),
    },
    serverSchema,
    { confirm: true },
  ),
  'servers.get': read('/{kind}/{webid}', serverPath, serverSchema),
  'servers.expiration.list': readPaged('/{kind}/expiration', { kind, ...pageQuery }, serverExpirationSchema),
  'servers.expiration.get': read('/{kind}/{webid}/expiration', serverPath, serverExpirationSchema),
  // Bounds of months are not in the spec; 1 to 120 is enforced here.
  'servers.expiration.extend': write(
    'PUT',
    '/{kind}/{webid}/expiration',
    { ...serverPath, months: positiveInt.max(120) },
    serverExpirationSchema,
    { confirm: true },
  ),
  'servers.autorenew.list': readPaged('/{kind}/autorenew', { kind, ...pageQuery }, serverAutorenewSchema),
  'servers.autorenew.get': read('/{kind}/{webid}/autorenew', serverPath, serverAutorenewSchema),
  'servers.autorenew.set': write(
    'PUT',
    '/{kind}/{webid}/autorenew',
    {
      ...serverPath,
      autorenew_all: autorenewSetting.optional(),
      autorenew_server: autorenewSetting.optional(),
    },
    serverAutorenewSchema,
  ),
  'servers.resource.get': read('/{kind}/{webid}/resource', serverPath, serverResourceSchema),
  // The answer carries webid, webname and only the changed allocation field.
  'servers.resource.set': write(
    'PUT',
    '/{kind}/{webid}/resource',
    { ...serverPath, type: z.enum(RESOURCE_FIELDS), num: z.number().int().min(0) },
    serverResourceSchema.partial().required({ webid: true }),
  ),

  // Svcips
  'svcips.list': readPaged('/svcips', pageQuery, svcipSchema),
  // An array of servers registers several at once; the answer is then an array.
  'svcips.register': write(
    'POST',
    '/svcips',
    {
      servers: z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1).max(100)]),
      region: z.enum(SVCIP_REGIONS),
    },
    svcipOneOrManySchema,
    { confirm: true },
  ),
  'svcips.get': read('/svcips/{vipid}', { vipid: id }, svcipSchema),
  // No paging object is shown for this list.
  'svcips.expiration.list': read('/svcips/expiration', {}, list(svcipExpirationSchema)),
  'svcips.expiration.get': read('/svcips/{vipid}/expiration', { vipid: id }, svcipExpirationSchema),
  'svcips.expiration.extend': write(
    'PUT',
    '/svcips/{vipid}/expiration',
    { vipid: id, months: positiveInt.max(120) },
    svcipExpirationSchema,
    { confirm: true },
  ),
  'svcips.setting.set': write(
    'PUT',
    '/svcips/{vipid}/setting',
    {
      vipid: id,
      webid: positiveInt,
      domainname: z.string().trim().min(1).max(253),
      ssl_on: flag.optional(),
      certid: z.string().max(128).optional(),
    },
    svcipSchema,
  ),
  'svcips.cache.delete': write('DELETE', '/svcips/{vipid}/cache', { vipid: id }, svcipCacheResultSchema, {
    confirm: true,
  }),

  // Domains
  'domains.list': readPaged('/domains', orderedPageQuery, domainListItemSchema),
  'domains.register': write(
    'POST',
    '/domains',
    {
      registrar: z.string().max(64).optional(),
      ...nameParts,
      years: z.number().int().min(1).max(9).optional(),
      ns: nsInput,
      whois_proxy: flag.optional(),
      contact: contactInput,
    },
    domainRegistrationSchema,
    { confirm: true },
  ),
  'domains.get': read('/domains/{domain}', domainPath, domainSchema),
  // Removes the domain from the account only; it stays registered until it expires.
  'domains.remove': write('DELETE', '/domains/{domain}', domainPath, domainRefSchema, {
    confirm: true,
  }),
  'domains.transfer.list': readPaged('/domains/transfer', orderedPageQuery, transferRequestSchema),
  'domains.transfer.listForDomain': readPaged(
    '/domains/{domain}/transfer',
    { ...domainPath, ...orderedPageQuery },
    transferRequestSchema,
  ),
  'domains.transfer.request': write(
    'POST',
    '/domains/{domain}/transfer',
    {
      ...domainPath,
      registrar: z.string().max(64).optional(),
      authcode: z.string().min(1).max(128),
      ns: nsInput.optional(),
      whois_proxy: flag.optional(),
      contact: contactInput.optional(),
    },
    transferRefSchema,
    { confirm: true },
  ),
  'domains.transfer.get': read(
    '/domains/{domain}/transfer/{transferorderid}',
    { ...domainPath, transferorderid: transferOrderId },
    transferRefSchema,
  ),
  'domains.transfer.cancel': write(
    'DELETE',
    '/domains/{domain}/transfer/{transferorderid}',
    { ...domainPath, transferorderid: transferOrderId },
    transferRefSchema,
    { confirm: true },
  ),
  'domains.expiration.list': readPaged('/domains/expiration', orderedPageQuery, domainExpirationSchema),
  'domains.expiration.get': read('/domains/{domain}/expiration', domainPath, domainExpirationSchema),
  // The spec does not show where `domain` goes; this table sends it in the JSON body.
  'domains.expiration.renew': write(
    'PUT',
    '/domains/expiration',
    { ...domainPath, years: z.number().int().min(1).max(9) },
    domainExpirationSchema,
    { confirm: true, where: { domain: 'body' } },
  ),
  'domains.autorenew.list': readPaged('/domains/autorenew', orderedPageQuery, domainAutorenewSchema),
  'domains.autorenew.get': read('/domains/{domain}/autorenew', domainPath, domainAutorenewSchema),
  'domains.autorenew.set': write(
    'PUT',
    '/domains/{domain}/autorenew',
    { ...domainPath, autorenew_all: autorenewSetting.optional(), autorenew_domain: autorenewSetting.optional() },
    domainAutorenewSchema,
  ),
  // The spec does not show this list’s method and path; GET /domains/transferlock follows the other lists.
  'domains.transferlock.list': readPaged('/domains/transferlock', orderedPageQuery, transferLockSchema),
  'domains.transferlock.get': read('/domains/{domain}/transferlock', domainPath, transferLockSchema),
  'domains.transferlock.set': write(
    'PUT',
    '/domains/{domain}/transferlock',
    { ...domainPath, transfer_lock: flag },
    transferLockSchema,
  ),
  'domains.whois.list': readPaged('/domains/whois', orderedPageQuery, whoisSchema),
  'domains.whois.get': read('/domains/{domain}/whois', domainPath, whoisSchema),
  // The spec does not show where `domain` goes; this table sends it in the JSON body.
  'domains.whois.set': write(
    'PUT',
    '/domains/whois',
    { ...domainPath, whois_proxy: flag.optional(), contact: contactInput.optional() },
    whoisSchema,
    { where: { domain: 'body' } },
  ),
  'domains.nameserver.list': readPaged('/domains/nameserver', orderedPageQuery, nameserverSchema),
  'domains.nameserver.get': read('/domains/{domain}/nameserver', domainPath, nameserverSchema),
  'domains.nameserver.set': write(
    'PUT',
    '/domains/{domain}/nameserver',
    { ...domainPath, ns: nsInput },
    nameserverSchema,
  ),
  'domains.dns.list': readPaged('/domains/dns', orderedPageQuery, dnsSettingSchema),
  'domains.dns.get': read('/domains/{domain}/dns', domainPath, dnsSettingSchema),
  'domains.dns.set': write(
    'PUT',
    '/domains/{domain}/dns',
    {
      ...domainPath,
      // A product word, not a fixed list: each account names its own (AccountProfile.nsTypes),
      // and a word the service itself returned is always sent back as it was.
      ns_type: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/, 'field.nsType'),
      ...zoneRecords,
    },
    dnsSettingSchema,
  ),
  'domains.dynamicdns.list': readPaged('/domains/dynamicdns', orderedPageQuery, dynamicDnsSchema),
  'domains.dynamicdns.get': read('/domains/{domain}/dynamicdns', domainPath, dynamicDnsSchema),
  'domains.dynamicdns.set': write(
    'PUT',
    '/domains/{domain}/dynamicdns',
    { ...domainPath, dynamicdns: flag, password: z.string().max(128).optional() },
    dynamicDnsSchema,
  ),
  'domains.dnssec.list': readPaged('/domains/dnssec', orderedPageQuery, dnssecSchema),
  'domains.dnssec.get': read('/domains/{domain}/dnssec', domainPath, dnssecSchema),
  'domains.dnssec.set': write(
    'PUT',
    '/domains/{domain}/dnssec',
    { ...domainPath, ds_records: z.array(dsRecordInput).max(16) },
    dnssecSchema,
  ),
  'domains.privatenameserver.list': readPaged(
    '/domains/{domain}/privatenameserver',
    { ...domainPath, ...orderedPageQuery },
    privateNameserverSchema,
  ),
  'domains.privatenameserver.create': write(
    'POST',
    '/domains/{domain}/privatenameserver',
    {
      ...domainPath,
      hostname: hostName,
      ipv4: z.string().max(15).optional(),
      ipv6: z.string().max(45).optional(),
    },
    privateNameserverSchema,
  ),
  'domains.privatenameserver.get': read(
    '/domains/{domain}/privatenameserver/{hostname}',
    { ...domainPath, hostname: hostName },
    privateNameserverSchema,
  ),
  'domains.privatenameserver.delete': write(
    'DELETE',
    '/domains/{domain}/privatenameserver/{hostname}',
    { ...domainPath, hostname: hostName },
    privateNameserverRefSchema,
    { confirm: true },
  ),
  'domains.localtransfer.list': readPaged('/domains/localtransfer', orderedPageQuery, ownershipSchema),
  'domains.localtransfer.get': read('/domains/{domain}/localtransfer', domainPath, ownershipSchema),
  'domains.localtransfer.set': write('PUT', '/domains/{domain}/localtransfer', ownershipChange, ownershipSchema, {
    confirm: true,
  }),

  // Domain search
  // domainnames is a comma-separated list.
  'domainsearch.check': read(
    '/domainsearch',
    { domainnames: z.string().trim().min(1).max(10_000) },
    list(availabilitySchema),
  ),

  // Free DNS
  'freedns.list': readPaged('/freedns', orderedPageQuery, freeDnsSettingSchema),
  'freedns.get': read('/freedns/{domain}', domainPath, freeDnsSettingSchema),
  // A provisional registration; a final registration is required afterwards. Allowed auth values are not shown.
  'freedns.register': write(
    'POST',
    '/freedns',
    {
      ...nameParts,
      auth: z.string().trim().min(1).max(32),
    },
    freeDnsSettingSchema,
  ),
  'freedns.set': write('PUT', '/freedns/{domain}', { ...domainPath, ...zoneRecords }, freeDnsSettingSchema),
  'freedns.remove': write('DELETE', '/freedns/{domain}', domainPath, domainRefSchema, { confirm: true }),
  'freedns.localtransfer.list': readPaged('/freedns/localtransfer', orderedPageQuery, ownershipSchema),
  'freedns.localtransfer.get': read('/freedns/{domain}/localtransfer', domainPath, ownershipSchema),
  'freedns.localtransfer.set': write('PUT', '/freedns/{domain}/localtransfer', ownershipChange, ownershipSchema, {
    confirm: true,
  }),

  // Logs
  'logs.list': readPaged('/logs', orderedPageQuery, logEntrySchema),
  'logs.get': read('/logs/{request_id}', { request_id: requestIdSchema }, logEntrySchema),
} as const satisfies Record<EndpointName, EndpointDef>

export type Endpoints = typeof endpoints

// The plain name lists (names.ts) and the table agree: `satisfies` above refuses a missing or
// extra operation, and this refuses a paged list that is not listed as paged, or the reverse.
type PagedInTable = { [N in EndpointName]: Endpoints[N]['paged'] extends true ? N : never }[EndpointName]
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const pagedListsAgree: Same<PagedInTable, PagedEndpointName> = true
void pagedListsAgree
// Likewise the writes: exactly the operations whose method is not GET.
type WritesInTable = { [N in EndpointName]: Endpoints[N]['method'] extends 'GET' ? never : N }[EndpointName]
const writeListsAgree: Same<WritesInTable, WriteEndpointName> = true
void writeListsAgree

/** What a caller passes to an endpoint (before validation). */
export type EndpointInput<N extends EndpointName> = z.input<Endpoints[N]['params']>
/** An endpoint's parameters once validated (ids as numbers, names trimmed). */
export type EndpointParams<N extends EndpointName> = z.output<Endpoints[N]['params']>
/** What an endpoint's `results` decode to. */
export type EndpointResult<N extends EndpointName> = z.output<Endpoints[N]['result']>
/** Item type of a paged list. */
export type PagedItem<N extends PagedEndpointName> = EndpointResult<N> extends readonly (infer T)[] ? T : never
/** Input of a paged list, without the paging members that listAll controls. */
export type PagedInput<N extends PagedEndpointName> = Omit<EndpointInput<N>, 'limit' | 'page'>
/** A paged list's parameters once validated, without the paging members that listAll sets. */
export type PagedParams<N extends PagedEndpointName> = Omit<EndpointParams<N>, 'limit' | 'page'>

const PATH_PARAM = /\{(\w+)\}/g

/** Names of the parameters that the path template carries. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((m) => m[1] ?? '')
}

/** Where a parameter of an endpoint goes: the one rule for the client and the sandbox. */
export function paramLocation(def: Pick<EndpointDef, 'method' | 'path' | 'where'>, name: string): ParamLocation {
  const explicit = def.where[name]
  if (explicit) return explicit
  if (pathParamNames(def.path).includes(name)) return 'path'
  return def.method === 'GET' || def.method === 'DELETE' ? 'query' : 'body'
}

/**
 * Validates an operation's parameters against its schema, once. The result is typed by the
 * operation: TypeScript cannot follow a generic name into the table, so the link between
 * `EndpointParams<N>` and the schema it is derived from is stated here, in one place.
 */
export function parseEndpointParams<N extends EndpointName>(name: N, input: unknown): Parsed<EndpointParams<N>> {
  const schema: z.ZodType = endpoints[name].params
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the schema has just checked the input; only the generic name's link to its type is stated
  return parseWith(schema, input) as Parsed<EndpointParams<N>>
}
