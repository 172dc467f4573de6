/**
 * The team's history in this workstation's history (issue 37 point 4). The writes other members
 * made are read from the team's history and kept in the local store as rows of this app, with
 * their member and workstation, so the History screen and a domain's history tab name who made
 * each change, and a refresh that then finds the change does not call it "from outside". A change
 * made at the service's own panel is in no team row: it stays "from outside".
 *
 * This workstation's own writes are already in its store (written before their team row), and a
 * row is kept once per job item however often it is read, so nothing is shown twice. What the
 * team keeps of a write has no parameters (they may hold a transfer code or a password): such a
 * row says what was done, by whom, how it ended, not with which values.
 *
 * Changes from outside are found by each workstation's own refresh; looked at on one, they are
 * looked at for the team (handled once, as reminders are: team_reminders), and marked seen on the
 * others when they next read history.
 *
 * A database away leaves the local history as it is; the next read catches up.
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { WRITE_ENDPOINT_NAMES } from '@shared/endpoints/names'
import type { HistoryEntry } from '@shared/portfolio/history'
import type { PortfolioStoreAsync } from '../store/store-async'
import { storedJson } from '../store/lists'
import type { ReminderHandlings } from '../reminders/handled'
import { factsOf } from '../jobs/operations'
import { teamChangeSchema } from './team-history'
import type { TeamAccountChange } from './team-shared'

export interface TeamChangesSource {
  accountChangesSince(accountId: string, afterId: number, limit: number): Promise<TeamAccountChange[]>
}

export interface TeamHistoryFeed {
  /**
   * Brings the account's team rows since the last call into the local history, and marks seen
   * here the changes from outside a colleague has looked at; never throws (onError hears why).
   */
  catchUp(accountId: string): Promise<void>
  /** Changes from outside looked at here: looked at for the team. */
  seenHere(accountId: string, entries: readonly HistoryEntry[]): Promise<void>
}

/**
 * A change from outside as every workstation that finds it names it: the subject, the aspect and
 * the value it changed to (each finds it on its own refresh, at its own time, maybe from an older
 * value before).
 */
const outsideChangeKey = (e: Pick<HistoryEntry, 'subjectKind' | 'subject' | 'aspect' | 'after'>): string =>
  [
    'outside',
    e.subjectKind,
    e.subject,
    e.aspect,
    createHash('sha256')
      .update(storedJson(e.after ?? null))
      .digest('base64url'),
  ].join('/')

/** Rows read per query, and queries per catch-up: a first catch-up of a long history reads it in pages, bounded. */
const PAGE = 500
const MAX_PAGES = 40

/** Only writes this app knows: a row of a newer app's operation is left out, not guessed at. */
const operationSchema = z.enum(WRITE_ENDPOINT_NAMES)

export function createTeamHistoryFeed(o: {
  source: TeamChangesSource
  handlings: ReminderHandlings
  store: PortfolioStoreAsync
  onError: (err: unknown) => void
}): TeamHistoryFeed {
  /** Per account, the last team row kept (this process's memory: after a restart the store's own check keeps rows once). */
  const upTo = new Map<string, number>()
  /** One catch-up per account at a time: two screens asking at once share it. */
  const running = new Map<string, Promise<void>>()

  async function keep(accountId: string, row: TeamAccountChange): Promise<void> {
    const change = teamChangeSchema.safeParse(row.change)
    if (!change.success || !row.by) return
    const operation = operationSchema.safeParse(change.data.operation)
    if (!operation.success) return
    const c = change.data
    await o.store.history.recordWrite({
      accountId,
      subjectKind: c.subjectKind ?? 'domain',
      subject: c.subject ?? row.domain,
      aspect: factsOf(operation.data).aspect,
      operation: operation.data,
      params: {},
      outcome: c.outcome,
      requestId: c.requestId,
      jobId: c.jobId,
      itemIndex: c.index,
      at: row.at,
      member: row.by.member,
      workstation: row.by.workstation,
      fromTeam: true,
      // A zone save's records before and after: its plan lines, as for this workstation's own saves.
      ...(c.recordsBefore !== undefined && c.records !== undefined
        ? { before: { records: c.recordsBefore }, after: { records: c.records } }
        : {}),
    })
  }

  async function catchUp(accountId: string): Promise<void> {
    let after = upTo.get(accountId) ?? 0
    for (let page = 0; page < MAX_PAGES; page++) {
      const rows = await o.source.accountChangesSince(accountId, after, PAGE)
      for (const row of rows) {
        await keep(accountId, row)
        after = row.id
        upTo.set(accountId, after)
      }
      if (rows.length < PAGE) return
    }
  }

  /** The changes from outside not looked at here that a colleague has looked at: seen here too. */
  async function seenByTeam(accountId: string): Promise<void> {
    const unseen = (await o.store.history.list({ accountId, outsideOnly: true })).filter((e) => !e.seen)
    if (unseen.length === 0) return
    const handled = await o.handlings.handledOf(accountId, unseen.map(outsideChangeKey))
    const ids = unseen.filter((e) => handled.has(outsideChangeKey(e))).map((e) => e.id)
    if (ids.length > 0) await o.store.history.markSeen(accountId, { ids })
  }

  return {
    catchUp(accountId) {
      const now =
        running.get(accountId) ??
        catchUp(accountId)
          .then(() => seenByTeam(accountId))
          .catch(o.onError)
          .finally(() => running.delete(accountId))
      running.set(accountId, now)
      return now
    },
    async seenHere(accountId, entries) {
      try {
        for (const e of entries)
          if (e.origin === 'outside') await o.handlings.handleOnce(accountId, outsideChangeKey(e), 'acknowledged')
      } catch (err) {
        o.onError(err)
      }
    },
  }
}
