/**
 * Plain constants of the API and the app, free of any dependency, so the renderer can
 * import them without pulling the schema library into its bundle.
 */

/** The three kinds of hosting server; each account maps them to its own path word. */
export const SERVER_KINDS = ['a', 'b', 'c'] as const
export type ServerKind = (typeof SERVER_KINDS)[number]

/** The 11 allocation fields of a server resource, in the spec's order. */
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

export const SVCIP_REGIONS = ['JP', 'WR'] as const
export type SvcipRegion = (typeof SVCIP_REGIONS)[number]

export const NS_TYPES = ['svc1', 'svc11'] as const

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

export const DEMO_ACCOUNT_ID = 'demo'
export const DEFAULT_TIMEOUT_MS = 120_000
/** The most nameservers a domain takes: the request's check and both forms' warnings. */
export const MAX_NAMESERVERS = 13

/** Placeholders the add-account form shows for the three server kinds. */
export const SERVER_KIND_PLACEHOLDERS: Record<ServerKind, { path: string; label: string }> = {
  a: { path: 'webservers', label: 'Web servers' },
  b: { path: 'managedservers', label: 'Managed servers' },
  c: { path: 'cloudservers', label: 'Cloud servers' },
}
