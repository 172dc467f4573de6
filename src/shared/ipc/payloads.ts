/**
 * The schemas of what the renderer may send on each channel. Main validates every payload
 * with these, once, before anything runs (src/main/ipc). The renderer and the preload only
 * use their types, so the schema library never reaches either bundle.
 */
import { z } from 'zod'
import { profileFieldsSchema } from '../accounts'
import { WRITE_ENDPOINT_NAMES } from '../endpoints/names'
import { JOB_PURPOSES } from '../jobs'
import type { LocalChannel } from './channels'
import { isStoredList, STORED_PARTS_MAX, ZONE_KINDS, type StoredListName } from '../portfolio'
import { MAX_HISTORY_RETENTION_DAYS, SUBJECT_KINDS } from '../portfolio/history'
import { reminderHandleSchema, reminderNotificationSchema, reminderSettingsSchema } from '../portfolio/reminder-schemas'
import { TEAM_SSL_MODES } from '../team'
import { servedFindingSchema } from '../dns/health/finding-schema'

const accountIdSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, 'field.accountId')
/** A read's own id (to cancel it, to follow its progress): not a write job's. */
const callIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'field.callId')
/** A key goes into the Authorization header: visible ASCII only, nothing a header cannot carry. */
const keySchema = z
  .string()
  .trim()
  .min(1, 'field.required')
  .max(4096)
  .regex(/^[\x21-\x7e]+$/, 'field.apiKeyChars')
const storageSchema = z.enum(['keychain', 'session'])
const writeJobIdSchema = z.string().regex(/^w-[0-9a-f-]{36}$/, 'field.jobId')

/** A write job as the renderer asks for it; each item's parameters are validated by main against the operation. */
function jobRequestSchema() {
  return z.object({
    accountId: accountIdSchema,
    operation: z.enum(WRITE_ENDPOINT_NAMES),
    items: z
      .array(
        z.object({
          params: z.record(z.string(), z.unknown()),
          label: z.string().max(300).optional(),
          guard: z
            .object({
              records: z.string().max(1_000_000),
              ttl: z.number().int().min(0).optional(),
              ns_type: z.string().max(100).optional(),
            })
            .optional(),
          overRule: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(10_000),
    purpose: z.enum(JOB_PURPOSES).optional(),
    concurrency: z.number().int().min(1).max(8).optional(),
    secondSend: z.boolean().optional(),
  })
}

/**
 * The Team section's form: where the database is, how TLS is checked, who this is. The password
 * is sent with it once (test, connect) and kept by main in the keychain, never answered back.
 */
const teamFormSchema = z.object({
  connection: z.object({
    host: z.string().trim().min(1, 'field.required').max(253),
    port: z.number().int().min(1).max(65535),
    database: z.string().trim().min(1, 'field.required').max(63),
    user: z.string().trim().min(1, 'field.required').max(63),
    sslmode: z.enum(TEAM_SSL_MODES),
    caFile: z.string().trim().min(1).max(4096).optional(),
  }),
  member: z.string().trim().min(1, 'field.required').max(100),
  workstation: z.string().trim().min(1, 'field.required').max(100),
  password: z.string().max(1024).optional(),
})

export const localPayloads = {
  'accounts.list': z.object({}),
  'accounts.create': z.object({ fields: profileFieldsSchema, apiKey: keySchema, storage: storageSchema }),
  'accounts.update': z.object({
    id: accountIdSchema,
    fields: profileFieldsSchema,
    typedName: z.string().max(200).optional(),
  }),
  'accounts.remove': z.object({ id: accountIdSchema }),
  'accounts.setActive': z.object({ id: accountIdSchema }),
  'accounts.replaceKey': z.object({ id: accountIdSchema, apiKey: keySchema, storage: storageSchema }),
  'accounts.testConnection': z.object({ id: accountIdSchema }),
  // A new account's key tried before the account is kept (the command line's accounts add).
  'accounts.testKey': z.object({ fields: profileFieldsSchema, apiKey: keySchema }),
  'accounts.keychainStatus': z.object({}),
  'reads.cancel': z.object({ callId: callIdSchema }),
  // Only a prepared job can leave held targets out: its answer says which (a submit would not).
  'jobs.prepare': jobRequestSchema().extend({ skipBusy: z.boolean().optional() }),
  'jobs.start': z.object({
    jobId: writeJobIdSchema,
    token: z.string().max(128).optional(),
    accountName: z.string().max(200).optional(),
  }),
  'jobs.submit': jobRequestSchema(),
  'jobs.discard': z.object({ jobId: writeJobIdSchema }),
  'jobs.list': z.object({}),
  'jobs.watch': z.object({}),
  'jobs.pause': z.object({ jobId: writeJobIdSchema }),
  'jobs.resume': z.object({ jobId: writeJobIdSchema }),
  'jobs.stop': z.object({ jobId: writeJobIdSchema }),
  'jobs.checkLog': z.object({ jobId: writeJobIdSchema, index: z.number().int().min(0).max(100_000) }),
  'app.quit': z.object({}),
  'app.unsavedWork': z.object({ count: z.number().int().min(0).max(100_000) }),
  'app.startup': z.object({}),
  'app.diagnostics': z.object({}),
  'app.openLogFolder': z.object({}),
  'app.copyText': z.object({ text: z.string().max(2_000_000) }),
  'store.list': z.object({
    accountId: accountIdSchema,
    name: z.custom<StoredListName>(isStoredList, 'field.listName'),
    params: z.record(z.string(), z.unknown()).default({}),
    /** Which part (store/list-parts.ts cuts them); absent: the whole list in one message. */
    part: z.number().int().min(0).max(STORED_PARTS_MAX).optional(),
    /**
     * 'service': the list read afresh in full first (as all.<name> reads and keeps it, with progress and
     * cancel by callId), its first part answered; its other parts are the stored list's (issue 54).
     */
    from: z.enum(['store', 'service']).default('store'),
    callId: callIdSchema.optional(),
  }),
  'store.search': z.object({ query: z.string().trim().max(200) }),
  'store.exportCsv': z.object({}),
  'store.exportZones': z.object({}),
  // history
  'history.list': z.object({
    accountId: accountIdSchema,
    subjectKind: z.enum(SUBJECT_KINDS).optional(),
    subject: z.string().max(300).optional(),
    outsideOnly: z.boolean().optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  'history.unseen': z.object({}),
  'history.markSeen': z.object({
    accountId: accountIdSchema,
    ids: z.array(z.number().int().min(1)).max(1000).optional(),
    subjectKind: z.enum(SUBJECT_KINDS).optional(),
    subject: z.string().max(300).optional(),
  }),
  'history.snapshots': z.object({
    accountId: accountIdSchema,
    kind: z.enum(ZONE_KINDS),
    domain: z.string().min(1).max(253),
  }),
  'history.snapshot': z.object({ accountId: accountIdSchema, id: z.number().int().min(1) }),
  'history.settings': z.object({}),
  'history.setRetention': z.object({ days: z.number().int().min(1).max(MAX_HISTORY_RETENTION_DAYS) }),
  'ddns.send': z.object({
    accountId: accountIdSchema,
    domain: z.string().min(1).max(253),
    /** Left out for the domain itself. */
    host: z.string().min(1).max(253).optional(),
    ip: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/),
  }),
  'store.refreshAccount': z.object({ accountId: accountIdSchema, callId: callIdSchema }),
  /** From the portfolio store (instant start) or read afresh from the service (and kept). */
  'details.whoisPrivacy': z.object({
    accountId: accountIdSchema,
    callId: callIdSchema,
    from: z.enum(['store', 'service']),
    /** The stored flags: which part (as store.list's parts); absent: all of them at once. */
    part: z.number().int().min(0).max(STORED_PARTS_MAX).optional(),
  }),
  // reminders
  'reminders.settings': z.object({}),
  'reminders.saveSettings': reminderSettingsSchema,
  'reminders.due': z.object({}),
  'reminders.notify': reminderNotificationSchema,
  'reminders.expirations': z.object({ accountId: accountIdSchema.optional() }),
  'reminders.open': z.object({}),
  'reminders.handle': reminderHandleSchema,
  // bulk DNS change
  'store.zones': z.object({
    accountId: accountIdSchema.optional(),
    containing: z.string().trim().min(1).max(1000).optional(),
  }),
  // zone health
  'store.health': z.object({ accountIds: z.array(accountIdSchema).max(1000) }),
  'store.served': z.object({ accountId: accountIdSchema.optional() }),
  'dns.health': z.object({
    zone: z.string().min(1).max(253),
    before: z.string().max(1_000_000),
    after: z.string().max(1_000_000),
  }),
  'dns.served': z.object({ accountId: accountIdSchema, domain: z.string().min(1).max(253), callId: callIdSchema }),
  'dns.servedRecord': z.object({
    accountId: accountIdSchema,
    zones: z
      .array(z.object({ domain: z.string().min(1).max(253), findings: z.array(servedFindingSchema).max(10_000) }))
      .max(100_000),
  }),
  'store.status': z.object({}),
  'store.restart': z.object({}),
  // team mode
  'team.test': teamFormSchema,
  'team.connect': teamFormSchema,
  'team.status': z.object({}),
  'team.disconnect': z.object({}),
  'app.reportError': z.object({
    source: z.enum(['error', 'rejection', 'vue']),
    message: z.string().max(2000),
    stack: z.string().max(8000).optional(),
  }),
} as const satisfies Record<LocalChannel, z.ZodType>
export type LocalPayloads = typeof localPayloads

/** What every API operation's payload adds to the operation's own parameters. */
export const apiCallExtras = z.object({ accountId: accountIdSchema, callId: callIdSchema.optional() })
/** A listAll call always names its job, so the renderer can follow and cancel it. */
export const listAllExtras = z.object({ accountId: accountIdSchema, callId: callIdSchema })
