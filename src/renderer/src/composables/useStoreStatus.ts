/**
 * Whether main's portfolio store answers (shared/portfolio/store-status): asked at once, then every
 * few seconds and whenever the window comes back to the front, so a store whose worker stopped is
 * said in the window while it is down (zone saves are refused then), with Retry once it gave up.
 */
import { onMounted, onUnmounted, ref } from 'vue'
import { invoke } from '../data/bridge'
import type { StoreStatus } from '@shared/portfolio/store-status'

const EVERY_MS = 5_000

export function useStoreStatus() {
  const status = ref<StoreStatus>({ state: 'up', restarts: 0 })
  const retrying = ref(false)
  let timer: ReturnType<typeof setInterval> | undefined
  const check = async () => {
    const r = await invoke('store.status', {})
    if (r.ok) status.value = r.value
  }
  const retry = async () => {
    retrying.value = true
    try {
      const r = await invoke('store.restart', {})
      if (r.ok) status.value = r.value
    } finally {
      retrying.value = false
    }
  }
  const onFocus = () => void check()
  onMounted(() => {
    void check()
    timer = setInterval(() => void check(), EVERY_MS)
    window.addEventListener('focus', onFocus)
  })
  onUnmounted(() => {
    clearInterval(timer)
    window.removeEventListener('focus', onFocus)
  })
  return { status, retrying, retry }
}
