import { computed } from 'vue'
import { SERVER_KINDS } from '@shared/service/constants'
import { useList } from './useList'

/**
 * The servers of every kind of the current account, for pickers (service IP registration and
 * settings): the shared lists, loaded if they are not yet.
 */
export function useServerLists() {
  const lists = SERVER_KINDS.map((kind) => useList('servers.list', { kind }))
  const ready = Promise.all(
    lists.map((l) => (l.state.status === 'done' ? Promise.resolve(l.state.data) : l.loadFirst())),
  )
  const all = computed(() => lists.flatMap((l) => l.state.data ?? []))
  return { all, ready }
}
