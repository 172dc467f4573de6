/**
 * The words for a job's targets (lib/text/job-target-text.ts) as the app has them: the catalogue,
 * each account's names for its server kinds, and each account's server lists as the Servers
 * screen shows them (the shared lists of stores/lists.ts, first painted from what was stored), so
 * a server written to by its id is named as that screen names it. A list the app has not read
 * yet is read once, for the accounts and kinds the jobs shown write to; until then a server
 * reads as it was given (its id or name).
 */
import { computed, watch, type Ref } from 'vue'
import type { JobView } from '@shared/jobs'
import { SERVER_KINDS, type ServerKind } from '@shared/service/constants'
import { accountApi } from '../data/account-api'
import { kindLabel } from '../lib/text/account-text'
import type { JobTargetWords } from '../lib/text/job-target-text'
import { useAccountsStore } from '../stores/accounts'
import { useListsStore } from '../stores/lists'
import { t } from '../i18n/index'

const listKey = (accountId: string, kind: ServerKind) => `${accountId}\n${kind}`

export function useJobTargetWords(jobs: Ref<readonly Pick<JobView, 'accountId' | 'items'>[]>) {
  const accounts = useAccountsStore()
  const lists = useListsStore()
  const serverList = (accountId: string, kind: ServerKind) =>
    lists.list(accountApi(accountId), 'servers.list', { kind })

  const wanted = computed(() => {
    const out = new Set<string>()
    for (const job of jobs.value) {
      // Only accounts the app still has: a removed account's lists cannot be read.
      if (!accounts.accounts.some((a) => a.id === job.accountId)) continue
      for (const item of job.items) {
        const k = SERVER_KINDS.find((x) => x === item.params.kind)
        if (k) out.add(listKey(job.accountId, k))
      }
    }
    return [...out]
  })
  watch(
    wanted,
    (keys) => {
      for (const key of keys) {
        const [accountId = '', kindText] = key.split('\n')
        const kind = SERVER_KINDS.find((x) => x === kindText)
        // ensureFirst reads a list once (stored first, then afresh) and never again.
        if (kind) serverList(accountId, kind).ensureFirst()
      }
    },
    { immediate: true },
  )

  return computed<JobTargetWords>(() => ({
    t,
    kindLabel: (accountId, kind) =>
      kindLabel(
        accounts.accounts.find((a) => a.id === accountId),
        kind,
      ),
    serverOf: (accountId, kind, ref) => {
      if (!accounts.accounts.some((a) => a.id === accountId)) return undefined
      const found = serverList(accountId, kind).state.data?.find((s) => s.webid === ref || s.webname === ref)
      return found ? { webid: found.webid, webname: found.webname } : undefined
    },
  }))
}
