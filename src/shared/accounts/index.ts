/**
 * Account profiles: what the app knows about each account of the service, except
 * its API key (which lives only in the OS keychain, or in memory for a session).
 */
import { z } from 'zod'
export { DEMO_ACCOUNT_ID, DEFAULT_TIMEOUT_MS } from '../service/constants'
import { validateBaseUrl } from './base-url'
import { WRITE_SAFETY } from './write-safety'

const pathWord = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/i, 'field.pathWord')

const serverKindSchema = z.object({
  path: pathWord,
  label: z.string().trim().min(1, 'field.required').max(40),
})

const serverKindsSchema = z.object({ a: serverKindSchema, b: serverKindSchema, c: serverKindSchema })

/**
 * The two DNS flavours' product words, as the live service names them in ns_type (the spec
 * writes svc1 and svc11), with the name shown for each. Profiles saved before these existed
 * get the spec's words.
 */
const nsTypeWordSchema = z.object({
  word: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/, 'field.nsType'),
  label: z.string().trim().min(1, 'field.required').max(60),
})
const nsTypesSchema = z.object({ svc1: nsTypeWordSchema, svc11: nsTypeWordSchema })
export type NsTypeWords = z.output<typeof nsTypesSchema>
export const DEFAULT_NS_TYPES: NsTypeWords = {
  svc1: { word: 'svc1', label: 'svc1' },
  svc11: { word: 'svc11', label: 'svc11' },
}

const baseUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .superRefine((v, ctx) => {
    const check = validateBaseUrl(v)
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.code })
  })
  .transform((v) => {
    const check = validateBaseUrl(v)
    return check.ok ? check.url : v
  })

/**
 * What tells accounts apart at a glance: a colour from a small named palette (names, so it can be
 * said and read, and a palette, so every colour keeps white text readable on it) and an
 * environment tag, always shown as text beside the colour. Profiles saved before these existed
 * load as slate and untagged.
 */
export const ACCOUNT_COLOURS = ['slate', 'blue', 'teal', 'green', 'purple', 'pink', 'orange', 'red'] as const
export type AccountColour = (typeof ACCOUNT_COLOURS)[number]
export const ACCOUNT_ENVIRONMENTS = ['production', 'staging', 'test', 'none'] as const
export type AccountEnvironment = (typeof ACCOUNT_ENVIRONMENTS)[number]

export { DEMO_ACCOUNT_NAME, DEMO_MARKS } from './demo'

/** The editable part of a profile. */
export const profileFieldsSchema = z.object({
  name: z.string().trim().min(1, 'field.required').max(80),
  baseUrl: baseUrlSchema,
  serverKinds: serverKindsSchema,
  nsTypes: nsTypesSchema.default(DEFAULT_NS_TYPES),
  /** Total time-out of one API call, in milliseconds. */
  timeoutMs: z.number().int().min(1000).max(600_000),
  colour: z.enum(ACCOUNT_COLOURS).default('slate'),
  environment: z.enum(ACCOUNT_ENVIRONMENTS).default('none'),
  /**
   * How every write of this account is guarded (see WRITE_SAFETY). Left out, it follows the
   * older `confirmByName` when a file has it, else the tag: 'name' for production, else 'none'.
   */
  writeSafety: z.enum(WRITE_SAFETY).optional(),
  /** Before write safety levels: paid and ownership operations asked for the name. Read, no longer written. */
  confirmByName: z.boolean().optional(),
  /** No write is sent for this account, whatever its key allows (main refuses the job). */
  readOnly: z.boolean().default(false),
  /** The dynamic DNS update address (shared/service/ddns.ts); left out, the live service's. */
  ddnsUrl: baseUrlSchema.optional(),
})
export type ProfileFields = z.output<typeof profileFieldsSchema>

export const accountProfileSchema = profileFieldsSchema.extend({
  id: z.string().regex(/^[a-z0-9-]{1,64}$/),
  /**
   * Where the app last put the account's key. A keychain that gives nothing back for a key the app
   * put there is locked or unavailable, not missing: the user is told to unlock it, not to replace it.
   */
  keyKept: z.enum(['keychain', 'session']).optional(),
})
export type AccountProfile = z.output<typeof accountProfileSchema>

/**
 * Where an account's key is kept: the keychain, memory for this session only, or nowhere yet; and,
 * for a key the app put in the keychain, what the keychain says now: it keeps it locked, it no
 * longer holds it (`missing`), or no keychain can be reached.
 */
export const KEY_STORAGE = ['keychain', 'session', 'none', 'locked', 'missing', 'unreachable'] as const
export type KeyStorage = (typeof KEY_STORAGE)[number]

/** What the renderer learns about an account: never the key, only where it is. */
export const accountViewSchema = accountProfileSchema.extend({
  demo: z.boolean(),
  keyStorage: z.enum(KEY_STORAGE),
})
export type AccountView = z.output<typeof accountViewSchema>

export { confirmsByName } from './write-safety'
