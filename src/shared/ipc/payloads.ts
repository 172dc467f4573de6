/**
 * The schemas of what the renderer may send on each channel. Main validates every payload
 * with these, once, before anything runs (src/main/ipc). The renderer and the preload only
 * use their types, so the schema library never reaches either bundle.
 */
import { z } from 'zod'
import { profileFieldsSchema } from '../accounts'
import type { LocalChannel } from './channels'

export const accountIdSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, 'field.accountId')
export const jobIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'field.jobId')
const keySchema = z.string().trim().min(1, 'field.required').max(4096)
const storageSchema = z.enum(['keychain', 'session'])

export const localPayloads = {
  'accounts.list': z.object({}),
  'accounts.create': z.object({ fields: profileFieldsSchema, apiKey: keySchema, storage: storageSchema }),
  'accounts.update': z.object({ id: accountIdSchema, fields: profileFieldsSchema }),
  'accounts.remove': z.object({ id: accountIdSchema }),
  'accounts.setActive': z.object({ id: accountIdSchema }),
  'accounts.replaceKey': z.object({ id: accountIdSchema, apiKey: keySchema, storage: storageSchema }),
  'accounts.testConnection': z.object({ id: accountIdSchema }),
  'accounts.keychainStatus': z.object({}),
  'jobs.cancel': z.object({ jobId: jobIdSchema }),
} as const satisfies Record<LocalChannel, z.ZodType>
export type LocalPayloads = typeof localPayloads

/** What every API operation's payload adds to the operation's own parameters. */
export const apiCallExtras = z.object({ accountId: accountIdSchema, jobId: jobIdSchema.optional() })
/** A listAll call always names its job, so the renderer can follow and cancel it. */
export const listAllExtras = z.object({ accountId: accountIdSchema, jobId: jobIdSchema })
