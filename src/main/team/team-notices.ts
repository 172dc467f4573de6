/**
 * Reminders notified once for the team (issue 50 point 3). Every running workstation works out on
 * its own which reminders are due (from its own store, at start and every hour); the first one to
 * find a reminder due claims its notice here and alone shows it on the desktop; the others list it
 * ("Expiring soon", with its handling) without a second notification. A notice keeps the item it
 * is about, so a workstation started later lists what is due before its store has read the account.
 *
 * What a row keeps is what the team's history already does of an item (its name, kind and expiry
 * date), never a key or a secret. The claim is a function of the database (team-rights.ts), as
 * every write of a member is.
 */
import type pg from 'pg'
import { z } from 'zod'
import { SERVER_KINDS } from '@shared/service/constants'
import { REMINDER_ITEM_KINDS, type ExpiringItem } from '@shared/portfolio/reminders'
import { teamErrorOf } from './team-error'
import type { TeamMember } from './team-shared'

/** A reminder's item as the team keeps it: without this workstation's id of its account. */
export type NoticedItem = Omit<ExpiringItem, 'accountId'>

const noticedItemSchema = z.object({
  kind: z.enum(REMINDER_ITEM_KINDS),
  id: z.string().min(1),
  serverKind: z.enum(SERVER_KINDS).optional(),
  label: z.string(),
  expires: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  autorenew: z.boolean().optional(),
})

/** A notice to claim: the reminder's team key (team_reminders' key), its team account and its item. */
export interface ReminderNotice {
  key: string
  account: string
  item: NoticedItem
}

/** The item as it is stored (an unknown auto-renewal left out: JSON has no undefined). */
const storedItem = (i: NoticedItem) => ({
  kind: i.kind,
  id: i.id,
  ...(i.serverKind ? { serverKind: i.serverKind } : {}),
  label: i.label,
  expires: i.expires,
  ...(i.autorenew !== undefined ? { autorenew: i.autorenew } : {}),
})

const keyRow = z.object({ key: z.string() })

/**
 * Claims the notices of these reminders for this workstation, in one statement: answers the keys
 * it won (nobody had claimed them); the others were claimed first elsewhere, or here before.
 */
export async function claimNotices(
  pool: pg.Pool,
  notices: readonly ReminderNotice[],
  by: TeamMember,
): Promise<Set<string>> {
  if (notices.length === 0) return new Set()
  try {
    const rows = JSON.stringify(
      notices.map((n) => ({ key: n.key, account: n.account, expires: n.item.expires, item: storedItem(n.item) })),
    )
    // team-rights.ts team_claim_notices: the caller's member from its login (members write no table).
    const won = await pool.query('SELECT team_claim_notices AS key FROM team_claim_notices($1::jsonb, $2, $3)', [
      rows,
      by.workstation,
      by.member,
    ])
    return new Set(won.rows.map((r: unknown) => keyRow.parse(r).key))
  } catch (err) {
    throw teamErrorOf(err)
  }
}

const noticeRow = z.object({ account: z.string(), item: z.unknown() })

/**
 * The items of these team accounts whose reminders were notified and whose expiry date is not
 * before `from` (YYYY-MM-DD), once per item: the latest notice's (an item renewed since is
 * noticed again with its new date). A row this app cannot read is left out.
 */
export async function noticedItems(
  pool: pg.Pool,
  accounts: readonly string[],
  from: string,
): Promise<Array<{ account: string; item: NoticedItem }>> {
  if (accounts.length === 0) return []
  try {
    const rows = (
      await pool.query(
        `SELECT DISTINCT ON (account, item->>'kind', item->>'serverKind', item->>'id') account, item
           FROM team_reminder_notices WHERE account = ANY($1::text[]) AND expires >= $2
           ORDER BY account, item->>'kind', item->>'serverKind', item->>'id', notified_at DESC`,
        [accounts, from],
      )
    ).rows
    return rows.flatMap((raw: unknown) => {
      const row = noticeRow.safeParse(raw)
      const item = row.success ? noticedItemSchema.safeParse(row.data.item) : undefined
      if (!row.success || !item?.success) return []
      const { serverKind, autorenew, ...rest } = item.data
      return [{ account: row.data.account, item: { ...rest, ...(serverKind ? { serverKind } : {}), autorenew } }]
    })
  } catch (err) {
    throw teamErrorOf(err)
  }
}
