/**
 * The history as the window reads it: in team mode the colleagues' rows are caught up with first,
 * so a colleague's write is shown as theirs and a change from outside they looked at is not
 * counted again; what is marked seen here is marked for the team.
 */
import type { ParsedPayloadOf } from '@shared/ipc/contract'
import type { HistoryEntry } from '@shared/portfolio/history'
import type { PortfolioStoreAsync } from '../store/store-async'
import type { TeamCatchUp } from './account-reads'

export interface HistoryReads {
  list(p: ParsedPayloadOf<'history.list'>): Promise<HistoryEntry[]>
  /** Changes from outside not looked at yet, per account. */
  unseen(): Promise<Record<string, number>>
  /** Marks changes seen; how many were. */
  markSeen(p: ParsedPayloadOf<'history.markSeen'>): Promise<number>
}

export function createHistoryReads(
  store: PortfolioStoreAsync | undefined,
  teamHistory: TeamCatchUp | undefined,
): HistoryReads {
  return {
    async list(p) {
      if (!store) return []
      await teamHistory?.catchUp(p.accountId)
      return store.history.list(p)
    },
    async unseen() {
      if (!store) return {}
      const counts = await store.history.unseen()
      if (!teamHistory) return counts
      // Team mode: a change from outside a colleague has looked at is not counted here either.
      for (const [accountId, n] of Object.entries(counts)) if (n > 0) await teamHistory.catchUp(accountId)
      return store.history.unseen()
    },
    async markSeen(p) {
      if (!store) return 0
      // Team mode: what is looked at here is looked at for the team; the rows are read before they are marked.
      const both = p.subjectKind !== undefined && p.subject !== undefined
      const subject = both ? { subjectKind: p.subjectKind, subject: p.subject } : {}
      const unseenOf = async (history: PortfolioStoreAsync['history']) =>
        (await history.list({ accountId: p.accountId, outsideOnly: true, ...subject })).filter(
          (e) => !e.seen && (!p.ids || p.ids.includes(e.id)),
        )
      const marking = teamHistory ? await unseenOf(store.history) : []
      const n = await store.history.markSeen(p.accountId, p)
      if (teamHistory && marking.length > 0) await teamHistory.seenHere(p.accountId, marking)
      return n
    },
  }
}
