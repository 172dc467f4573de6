/**
 * The words the service's documentation (API-SPEC.md) gives for the values a request may name.
 * Facts of the spec, not rules of the app: the app's constants and the sandbox's request model
 * both take them from here, and each keeps its own checks of what a request may be.
 */

/** "Contact": an object with four members, each of these strings. */
export const CONTACT_ROLES = ['registrant', 'admin', 'tech', 'billing'] as const
export type ContactRole = (typeof CONTACT_ROLES)[number]
export const CONTACT_FIELDS = [
  'firstname',
  'lastname',
  'organization',
  'country',
  'postalcode',
  'state',
  'city',
  'address1',
  'address2',
  'phone',
  'fax',
] as const

/** "Server resource": the allocation fields, which PUT /{servers}/{webid}/resource names as `type`. */
export const RESOURCE_FIELDS = [
  'disk_quota',
  'domainweb_num',
  'db_num',
  'ftp_num',
  'maillist_num',
  'mailmaga_num',
  'domainmail_num',
  'server_copy_num',
  'backupsv_setting',
  'backupsv_max_num',
  'maxfile_quota',
] as const
export type ResourceField = (typeof RESOURCE_FIELDS)[number]

/** "Svcip": region, "allowed values JP or WR". */
export const SVCIP_REGIONS = ['JP', 'WR'] as const
export type SvcipRegion = (typeof SVCIP_REGIONS)[number]

/** "DNS setting": ns_type, "the only supported values are svc1 and svc11". */
export const NS_TYPES = ['svc1', 'svc11'] as const
export type NsType = (typeof NS_TYPES)[number]
