/**
 * Plain constants of the API and the app, free of any dependency, so the renderer can
 * import them without pulling the schema library into its bundle.
 */

/** The three kinds of hosting server; each account maps them to its own path word. */
export const SERVER_KINDS = ['a', 'b', 'c'] as const
export type ServerKind = (typeof SERVER_KINDS)[number]

export {
  CONTACT_FIELDS,
  CONTACT_ROLES,
  NS_TYPES,
  RESOURCE_FIELDS,
  SVCIP_REGIONS,
  type ContactRole,
  type ResourceField,
  type SvcipRegion,
} from './spec-words'

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
