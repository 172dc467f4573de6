/**
 * Changes found from outside this app that the user has not looked at yet, per account: the
 * sidebar's badge. Asked again on each navigation and every half minute (a refresh in the
 * background may have found some), and after the user has looked.
 */
import { defineStore } from 'pinia'
import { invoke } from '../data/bridge'
import type { PayloadOf } from '@shared/ipc/contract'
import type { SubjectKind } from '@shared/portfolio/history'

export const useHistoryStore = defineStore('history', {
  state: (): { unseen: Record<string, number> } => ({ unseen: {} }),
  actions: {
    async refresh() {
      const r = await invoke('history.unseen', {})
      if (r.ok) this.unseen = r.value
    },
    /** The user has looked at these changes (or every change of the subject, or of the account). */
    async markSeen(accountId: string, opts: { ids?: number[]; subjectKind?: SubjectKind; subject?: string } = {}) {
      const r = await invoke('history.markSeen', { accountId, ...opts })
      await this.refresh()
      return r
    },
    /** An account's history, newest first: all of it, only what changed outside the app, or one subject's. */
    list(query: PayloadOf<'history.list'>) {
      return invoke('history.list', query)
    },
    /** The snapshots kept of one zone, each restorable. */
    snapshots(query: PayloadOf<'history.snapshots'>) {
      return invoke('history.snapshots', query)
    },
    /** How long history is kept (main prunes what is older). */
    settings() {
      return invoke('history.settings', {})
    },
    setRetention(days: number) {
      return invoke('history.setRetention', { days })
    },
    /** What changed outside this app in one subject that the user has not looked at yet (the detail's note). */
    async unseenOutside(accountId: string, subjectKind: SubjectKind, subject: string) {
      const r = await invoke('history.list', { accountId, subjectKind, subject, outsideOnly: true, limit: 50 })
      return r.ok ? r.value.filter((e) => !e.seen) : []
    },
  },
})
