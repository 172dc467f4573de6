/**
 * Resource schemas of the hosting and domain API (API-SPEC.md section 2).
 *
 * These decode what the service answers. They are deliberately tolerant, as the
 * live service is inconsistent: unknown members are dropped (the live service adds
 * a `request` member echoing the call), numeric fields may arrive as numbers or as
 * numeric strings (`ttl` is a string on GET and a number after PUT), ids that the
 * spec calls strings may arrive as numbers, and `ds_records` is a single object in
 * responses but an array in requests. Every decoder yields one normalised shape.
 */
import { z } from 'zod'

export { RESOURCE_FIELDS, SVCIP_REGIONS, CONTACT_FIELDS } from '../service/constants'
export type { ResourceField, SvcipRegion, ContactRole } from '../service/constants'

/** An integer that may come as a number or a numeric string. */
const intLike = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/),
  ])
  .transform((v) => Number(v))

/** A string that may come as a number (ids, flags the service stringifies). */
const strLike = z.union([z.string(), z.number()]).transform((v) => String(v))

/** Missing or null text becomes ''. Keeps optional text fields simple for the views. */
const text = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v)))

/** Optional integer flag: absent stays undefined, present is normalised to a number. */
const optInt = intLike.optional()

/** YYYY-MM-DD, or empty. Kept as text: the views format dates in the user's locale. */
const date = text

// Each resource answers with its key pair first (an id and a name) and the auto-renewal answers
// with the same three flags; these pieces name them once.
const serverKey = { webid: strLike, webname: text }
const svcipKey = { vipid: strLike, vipname: text }
const domainKey = { domainid: intLike, domainname: text }
const autorenewFlags = { autorenew: optInt, autorenew_all: optInt }

// ---------------------------------------------------------------- servers

export const serverSchema = z.object({
  ...serverKey,
  paid: text,
  starttime: date,
  expirationdate: date,
  ...autorenewFlags,
  autorenew_server: optInt,
  plan: text,
})
export type Server = z.output<typeof serverSchema>

export const serverExpirationSchema = z.object({ ...serverKey, expirationdate: date })
export type ServerExpiration = z.output<typeof serverExpirationSchema>

export const serverAutorenewSchema = z.object({ ...serverKey, ...autorenewFlags, autorenew_server: optInt })
export type ServerAutorenew = z.output<typeof serverAutorenewSchema>

/** An allocation is the text "default" or a number (a number once it was changed). */
const allocationSchema = z.union([z.literal('default'), intLike]).optional()

export const serverResourceSchema = z.object({
  ...serverKey,
  disk_quota: allocationSchema,
  domainweb_num: allocationSchema,
  db_num: allocationSchema,
  ftp_num: allocationSchema,
  maillist_num: allocationSchema,
  mailmaga_num: allocationSchema,
  domainmail_num: allocationSchema,
  server_copy_num: allocationSchema,
  backupsv_setting: allocationSchema,
  backupsv_max_num: allocationSchema,
  maxfile_quota: allocationSchema,
})
export type ServerResource = z.output<typeof serverResourceSchema>

// ---------------------------------------------------------------- svcips

export const svcipSchema = z.object({
  ...svcipKey,
  webname: text,
  domainname: text,
  paid: text,
  starttime: date,
  expirationdate: date,
  region: text,
})
export type Svcip = z.output<typeof svcipSchema>

/** POST /svcips answers one Svcip, or an array when several servers were registered. */
export const svcipOneOrManySchema = z
  .union([z.array(svcipSchema), svcipSchema])
  .transform((v) => (Array.isArray(v) ? v : [v]))

export const svcipExpirationSchema = z.object({ ...svcipKey, expirationdate: date })
export type SvcipExpiration = z.output<typeof svcipExpirationSchema>

export const svcipCacheResultSchema = z.object(svcipKey)

// ---------------------------------------------------------------- domains

const contactPersonSchema = z.object({
  firstname: text,
  lastname: text,
  organization: text,
  country: text,
  postalcode: text,
  state: text,
  city: text,
  address1: text,
  address2: text,
  phone: text,
  fax: text,
})
export type ContactPerson = z.output<typeof contactPersonSchema>

const emptyPerson = (): ContactPerson => contactPersonSchema.parse({})
/** A role the answer leaves out reads as an empty person. */
const contactRole = contactPersonSchema.optional().transform((v) => v ?? emptyPerson())
const contactSchema = z.object({ registrant: contactRole, admin: contactRole, tech: contactRole, billing: contactRole })

const nsList = z
  .union([z.array(z.string()), z.null()])
  .optional()
  .transform((v) => v ?? [])

export const domainListItemSchema = z.object({
  ...domainKey,
  registrar: text,
  expirationdate: date,
  ...autorenewFlags,
  autorenew_domain: optInt,
})
export type DomainListItem = z.output<typeof domainListItemSchema>

export const domainSchema = domainListItemSchema.extend({
  status: text,
  transfer_lock: optInt,
  ns: nsList,
  whoisproxy: text,
  contact: contactSchema.optional(),
})

export const domainRegistrationSchema = z.object({ ...domainKey, sld: text, tld: text })
export type DomainRegistration = z.output<typeof domainRegistrationSchema>

export const domainRefSchema = z.object(domainKey)

export const transferRequestSchema = z.object({
  ...domainKey,
  transferorderid: text,
  status: text,
  expirationdate: date,
  failurereason: text,
  starttime: text,
})
export type TransferRequest = z.output<typeof transferRequestSchema>

export const transferRefSchema = z.object({ ...domainKey, transferorderid: text })

export const domainExpirationSchema = z.object({ ...domainKey, expirationdate: date })

export const domainAutorenewSchema = z.object({ ...domainKey, ...autorenewFlags, autorenew_domain: optInt })
export type DomainAutorenew = z.output<typeof domainAutorenewSchema>

export const transferLockSchema = z.object({
  ...domainKey,
  transfer_lock: intLike,
  authcode: text,
})

export const whoisSchema = z.object({ ...domainKey, whoisproxy: text, contact: contactSchema })
export type Whois = z.output<typeof whoisSchema>

export const nameserverSchema = z.object({ ...domainKey, ns: nsList })

/** ttl is text on GET and a number after PUT; both become a number. */
const ttl = z
  .union([intLike, z.literal(''), z.null()])
  .optional()
  .transform((v) => (typeof v === 'number' ? v : undefined))

export const dnsSettingSchema = z.object({ ...domainKey, ns_type: text, records: text, ttl })
export type DnsSetting = z.output<typeof dnsSettingSchema>

export const freeDnsSettingSchema = z.object({ ...domainKey, records: text, ttl })
export type FreeDnsSetting = z.output<typeof freeDnsSettingSchema>

export const dynamicDnsSchema = z.object({ ...domainKey, dynamicdns: intLike, password: text })

const dsRecordSchema = z.object({ keytag: intLike, alg: intLike, digesttype: intLike, digest: text })
export type DsRecord = z.output<typeof dsRecordSchema>

/**
 * Responses show ds_records as one DS record object; requests send an array.
 * Decode either (or nothing) into an array so the editor has one shape.
 */
const dsRecordsInResponse = z
  .union([
    z.array(dsRecordSchema),
    dsRecordSchema.transform((one) => [one]),
    z.null(),
    z.literal(''),
    z.object({}).strict(),
  ])
  .optional()
  .transform((v): DsRecord[] => (Array.isArray(v) ? v : []))

export const dnssecSchema = z.object({ ...domainKey, ds_records: dsRecordsInResponse })

export const privateNameserverSchema = z.object({
  ...domainKey,
  hostname: text,
  ipv4: text,
  ipv6: text,
})
export type PrivateNameserver = z.output<typeof privateNameserverSchema>

export const privateNameserverRefSchema = z.object({ ...domainKey, hostname: text })

export const ownershipSchema = z.object({
  ...domainKey,
  username: text,
  message: text.optional(),
})
export type Ownership = z.output<typeof ownershipSchema>

export const availabilitySchema = z.object({ domainname: text, sld: text, tld: text, status: text })
export type Availability = z.output<typeof availabilitySchema>

// ---------------------------------------------------------------- logs

export const logEntrySchema = z.object({
  request_id: text,
  datetime: text,
  method: text,
  path: text,
  request: text,
  response: text,
  addr: text,
})
export type LogEntry = z.output<typeof logEntrySchema>

// ---------------------------------------------------------------- envelope

export const pagingSchema = z.object({ max: intLike, page: intLike, limit: intLike })
export type Paging = z.output<typeof pagingSchema>

/** The live service's error body: {"errors": {"code": 400, "message": "..."}, "request_id": "..."} */
export const errorBodySchema = z.object({
  errors: z
    .union([
      z.object({ code: intLike.optional(), message: z.union([z.string(), z.array(z.string())]).optional() }),
      z.array(z.object({ code: intLike.optional(), message: z.string().optional() })),
      z.string(),
    ])
    .optional(),
  message: z.string().optional(),
  request_id: strLike.optional(),
})
