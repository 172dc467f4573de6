/**
 * The schemas of reminder settings and of a notification's click target, for main: the IPC
 * payloads (ipc/payloads.ts) and the settings read back from the store are checked with the
 * same ones. Kept apart from reminders.ts, which the renderer imports, so the schema library
 * stays out of its bundle.
 */
import { z } from 'zod'
import { SERVER_KINDS } from '../service/constants'
import {
  MAX_THRESHOLDS,
  MAX_THRESHOLD_DAYS,
  REMINDER_HANDLINGS,
  REMINDER_ITEM_KINDS,
  normaliseThresholds,
} from './reminders'

export const reminderSettingsSchema = z.object({
  enabled: z.boolean(),
  // Each once, largest first; counted after duplicates are dropped.
  thresholds: z
    .array(z.number().int().min(0).max(MAX_THRESHOLD_DAYS))
    .max(100)
    .transform(normaliseThresholds)
    .pipe(z.array(z.number()).min(1).max(MAX_THRESHOLDS)),
  includeAutorenewing: z.boolean(),
})

const reminderTargetSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.enum(REMINDER_ITEM_KINDS),
    accountId: z.string().regex(/^[a-z0-9-]{1,64}$/, 'field.accountId'),
    id: z.string().min(1).max(253),
    serverKind: z.enum(SERVER_KINDS).optional(),
  }),
  z.object({ kind: z.literal('overview') }),
])

/** A notification as the renderer words it: one line of title, a few of body. */
export const reminderNotificationSchema = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().max(1000),
  target: reminderTargetSchema,
})

/** Handling a reminder (or a change from outside) once, for everyone who sees it (issue 37 point 7). */
export const reminderHandleSchema = z.object({
  accountId: z.string().regex(/^[a-z0-9-]{1,64}$/, 'field.accountId'),
  key: z.string().min(1).max(600),
  how: z.enum(REMINDER_HANDLINGS),
  /** A snooze: for how many days. */
  snoozeDays: z.number().int().min(1).max(90).optional(),
})

/** A handling as it is kept (the local store's copy, read back). */
export const reminderHandledSchema = z.object({
  how: z.enum(REMINDER_HANDLINGS),
  at: z.string(),
  member: z.string().optional(),
  workstation: z.string().optional(),
  snoozedUntil: z.string().optional(),
})
