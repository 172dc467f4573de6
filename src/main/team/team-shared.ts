/**
 * What the team shares besides the journal and the leases (issue 37 points 2, 4 and 7): account
 * identities matched by fingerprint, history with its member, drift findings, and reminders
 * handled once for the team. Every row read back is validated; nothing secret is written (the
 * callers hand in what history already keeps; contact details are not part of these rows).
 */
import type pg from 'pg'
import { z } from 'zod'
import { teamErrorOf } from './team-error'

export interface TeamMember {
  member: string
  workstation: string
}

export const teamAccountSchema = z.object({
  fingerprint: z.string().min(1),
  label: z.string(),
  colour: z.string().nullable(),
  tag: z.string().nullable(),
  writeSafety: z.string().min(1),
})
export type TeamAccount = z.infer<typeof teamAccountSchema>

const accountRow = z.object({
  fingerprint: z.string(),
  label: z.string(),
  colour: z.string().nullable(),
  tag: z.string().nullable(),
  write_safety: z.string(),
})

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    throw teamErrorOf(err)
  }
}

/** Shares an account's identity (never its key): the last member to change it wins. */
export function shareAccount(pool: pg.Pool, a: TeamAccount, by: TeamMember): Promise<void> {
  return guarded(async () => {
    // team-rights.ts team_share_account: a change of the write safety level is a team history entry.
    await pool.query('SELECT team_share_account($1, $2, $3, $4, $5, $6, $7)', [
      a.fingerprint,
      a.label,
      a.colour,
      a.tag,
      a.writeSafety,
      by.workstation,
      by.member,
    ])
  })
}

/** The team's identity of the account whose key gives this fingerprint, if shared. */
export function sharedAccount(pool: pg.Pool, fingerprint: string): Promise<TeamAccount | undefined> {
  return guarded(async () => {
    const raw: unknown = (
      await pool.query(
        'SELECT fingerprint, label, colour, tag, write_safety FROM team_accounts WHERE fingerprint = $1',
        [fingerprint],
      )
    ).rows[0]
    if (raw === undefined) return undefined
    const r = accountRow.parse(raw)
    return { fingerprint: r.fingerprint, label: r.label, colour: r.colour, tag: r.tag, writeSafety: r.write_safety }
  })
}

const historyRow = z.object({
  at: z.date(),
  member: z.string().nullable(),
  workstation: z.string().nullable(),
  change: z.unknown(),
})
export type TeamHistoryEntry = { at: string; by: TeamMember | undefined; change: unknown }

/**
 * A change of a domain, with the member who made it (undefined: seen from outside, e.g. the
 * service's panel). `relaxed`: committed without waiting for the disk, as the local store keeps
 * its history (SQLite's synchronous=NORMAL): a record, never a gate of a send.
 */
export function recordHistory(
  pool: pg.Pool,
  account: string,
  domain: string,
  change: unknown,
  by: TeamMember | undefined,
  opts: { relaxed?: boolean } = {},
): Promise<void> {
  return guarded(async () => {
    await pool.query('SELECT team_history_add($1, $2, $3::jsonb, $4, $5, $6)', [
      account,
      domain,
      JSON.stringify(change),
      by?.workstation ?? null,
      opts.relaxed === true,
      by?.member ?? null,
    ])
  })
}

export function domainHistory(pool: pg.Pool, account: string, domain: string): Promise<TeamHistoryEntry[]> {
  return guarded(async () => {
    const rows = (
      await pool.query(
        'SELECT at, member, workstation, change FROM team_history WHERE account = $1 AND domain = $2 ORDER BY at, id',
        [account, domain],
      )
    ).rows
    return rows.map((raw) => {
      const r = historyRow.parse(raw)
      return {
        at: r.at.toISOString(),
        by: r.member !== null && r.workstation !== null ? { member: r.member, workstation: r.workstation } : undefined,
        change: r.change,
      }
    })
  })
}

/** bigserial ids arrive as text from pg. */
const serialId = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(0))
const accountHistoryRow = historyRow.extend({ id: serialId, domain: z.string() })
export type TeamAccountChange = TeamHistoryEntry & { id: number; domain: string }

/** An account's changes as the team knows them after the row `afterId`, oldest first, at most `limit`. */
export function accountHistorySince(
  pool: pg.Pool,
  account: string,
  afterId: number,
  limit: number,
): Promise<TeamAccountChange[]> {
  return guarded(async () => {
    const rows = (
      await pool.query(
        'SELECT id, domain, at, member, workstation, change FROM team_history WHERE account = $1 AND id > $2 ORDER BY id LIMIT $3',
        [account, afterId, limit],
      )
    ).rows
    return rows.map((raw) => {
      const r = accountHistoryRow.parse(raw)
      return {
        id: r.id,
        domain: r.domain,
        at: r.at.toISOString(),
        by: r.member !== null && r.workstation !== null ? { member: r.member, workstation: r.workstation } : undefined,
        change: r.change,
      }
    })
  })
}

export type ReminderHandling = 'acknowledged' | 'snoozed' | 'calendar'
const reminderRow = z.object({
  key: z.string(),
  due_at: z.date(),
  handled: z.enum(['acknowledged', 'snoozed', 'calendar']).nullable(),
  handled_by: z.string().nullable(),
  handled_on: z.string().nullable(),
  handled_at: z.date().nullable(),
  snoozed_until: z.date().nullable(),
})
export type TeamReminder = {
  key: string
  dueAt: string
  handled?: { how: ReminderHandling; by: TeamMember; at: string; snoozedUntil?: string }
}

function reminderOf(raw: unknown): TeamReminder {
  const r = reminderRow.parse(raw)
  const handled =
    r.handled !== null && r.handled_by !== null && r.handled_on !== null && r.handled_at !== null
      ? {
          how: r.handled,
          by: { member: r.handled_by, workstation: r.handled_on },
          at: r.handled_at.toISOString(),
          ...(r.snoozed_until ? { snoozedUntil: r.snoozed_until.toISOString() } : {}),
        }
      : undefined
  return { key: r.key, dueAt: r.due_at.toISOString(), ...(handled ? { handled } : {}) }
}

/** A reminder due: known to the team (shown to every member) until handled. */
export function reminderDue(pool: pg.Pool, key: string, dueAt: Date): Promise<TeamReminder> {
  return guarded(async () => {
    return reminderOf((await pool.query('SELECT * FROM team_reminder_due($1, $2, NULL)', [key, dueAt])).rows[0])
  })
}

/**
 * Handles a reminder for the team: the first member wins; a later one is told who handled it
 * (`mine: false`). A snooze that has run out may be handled again.
 */
export function handleReminder(
  pool: pg.Pool,
  key: string,
  how: ReminderHandling,
  by: TeamMember,
  snoozedUntil?: Date,
): Promise<{ mine: boolean; reminder: TeamReminder }> {
  return guarded(async () => {
    const won = z
      .object({ mine: z.boolean() })
      .parse(
        (
          await pool.query('SELECT team_reminder_handle($1, $2, $3, $4, $5) AS mine', [
            key,
            how,
            by.workstation,
            how === 'snoozed' ? (snoozedUntil ?? null) : null,
            by.member,
          ])
        ).rows[0],
      ).mine
    return {
      mine: won,
      reminder: reminderOf((await pool.query('SELECT * FROM team_reminders WHERE key = $1', [key])).rows[0]),
    }
  })
}

/** The reminders of these keys the team knows, handled or not. */
export function remindersOf(pool: pg.Pool, keys: readonly string[]): Promise<TeamReminder[]> {
  return guarded(async () => {
    if (keys.length === 0) return []
    return (await pool.query('SELECT * FROM team_reminders WHERE key = ANY($1::text[])', [keys])).rows.map(reminderOf)
  })
}

const findingRow = z.object({ domain: z.string(), found_at: z.date(), found_by: z.string(), finding: z.unknown() })

/** A drift finding, seen by one member, kept for the team. */
export function recordDrift(
  pool: pg.Pool,
  account: string,
  domain: string,
  finding: unknown,
  by: TeamMember,
): Promise<void> {
  return guarded(async () => {
    await pool.query('SELECT team_record_drift($1, $2, $3::jsonb, $4)', [
      account,
      domain,
      JSON.stringify(finding),
      by.member,
    ])
  })
}

export function driftFindings(
  pool: pg.Pool,
  account: string,
): Promise<Array<{ domain: string; foundAt: string; foundBy: string; finding: unknown }>> {
  return guarded(async () => {
    const rows = (
      await pool.query(
        'SELECT domain, found_at, found_by, finding FROM team_drift_findings WHERE account = $1 ORDER BY found_at, id',
        [account],
      )
    ).rows
    return rows.map((raw) => {
      const r = findingRow.parse(raw)
      return { domain: r.domain, foundAt: r.found_at.toISOString(), foundBy: r.found_by, finding: r.finding }
    })
  })
}
