/**
 * What the user reaches for when something went wrong: the app's log folder (main opens it in the
 * system's file manager), the diagnostics to paste into a report, and quitting. Works before the
 * app is mounted too (the start-up failure screen has no stores). The error is the last call's:
 * a screen may pass its own, so one banner says whichever of its calls failed last.
 */
import { ref, type Ref } from 'vue'
import { invoke, type ErrorData } from '../data/bridge'
import type { Diagnostics } from '@shared/ipc/contract'

export function useAppSupport(error: Ref<ErrorData | undefined> = ref()) {
  /** Whether main opened it; the error said otherwise, and cleared when it did. */
  async function openLogFolder(): Promise<boolean> {
    const r = await invoke('app.openLogFolder', {})
    error.value = r.ok ? undefined : r.error
    return r.ok
  }

  async function diagnostics(): Promise<Diagnostics | undefined> {
    const r = await invoke('app.diagnostics', {})
    error.value = r.ok ? undefined : r.error
    return r.ok ? r.value : undefined
  }

  function quit(): void {
    void invoke('app.quit', {})
  }

  return { openLogFolder, diagnostics, quit, error }
}
