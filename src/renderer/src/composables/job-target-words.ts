/**
 * The words for a job's targets (lib/text/job-target-text.ts) as the app has them: the catalogue,
 * each account's names for its server kinds, and the servers each account's stored lists hold,
 * so a server written to by its id is named as the Servers screen names it. The stored lists are
 * read once per account and kind that the jobs shown write to; until then a server reads as it
 * was given (its id or name).
 */
import { computed, shallowRef, watch, type Ref } from 'vue'
import type { JobView } from '../../../shared/jobs'
import { SERVER_KINDS, type ServerKind } from '../../../shared/service/constants'
import { accountApi } from '../lib/data/account-api'
import { kindLabel } from '../lib/text/account-text'
import type { JobTargetWords, ListedServer } from '../lib/text/job-target-text'
import { useAccountsStore } from '../stores/accounts'
import { t } from '../i18n'

const listKey = (accountId: string, kind: ServerKind) => `${accountId}\n${kind}`

export function useJobTargetWords(jobs: Ref<readonly Pick<JobView, 'accountId' | 'items'>[]>) {
  const accounts = useAccountsStore()
  /** Per account and kind: its stored servers, by id and by name. */
  const lists = shallowRef(new Map<string, Map<string, ListedServer>>())
  const asked = new Set<string>()

  const wanted = computed(() => {
    const out = new Set<string>()
    for (const job of jobs.value) {
      for (const item of job.items) {
        const kind = item.params.kind
        const k = SERVER_KINDS.find((x) => x === kind)
        if (k) out.add(listKey(job.accountId, k))
      }
    }
    return [...out]
  })
  watch(
    wanted,
    async (keys) => {
      for (const key of keys) {
        if (asked.has(key)) continue
        asked.add(key)
        const [accountId = '', kindText] = key.split('\n')
        const kind = SERVER_KINDS.find((x) => x === kindText)
        if (!kind) continue
        const r = await accountApi(accountId).stored('servers.list', { kind })
        if (!r.ok || !r.value) continue
        const byRef = new Map<string, ListedServer>()
        for (const s of r.value.items) {
          const server = { webid: s.webid, webname: s.webname }
          byRef.set(s.webid, server)
          byRef.set(s.webname, server)
        }
        lists.value = new Map(lists.value).set(key, byRef)
      }
    },
    { immediate: true },
  )

  return computed<JobTargetWords>(() => {
    const known = lists.value
    return {
      t,
      kindLabel: (accountId, kind) => kindLabel(accounts.accounts.find((a) => a.id === accountId), kind),
      serverOf: (accountId, kind, ref) => known.get(listKey(accountId, kind))?.get(ref),
    }
  })
}
