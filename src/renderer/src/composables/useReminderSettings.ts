/**
 * The expiry reminders' settings as main keeps them (in the portfolio store, which checks them
 * again): read, and saved one save at a time. The error is the last failure, cleared by a save.
 */
import { ref } from 'vue'
import { invoke, type ErrorData } from '../data/bridge'
import type { ReminderSettings } from '@shared/portfolio/reminders'

export function useReminderSettings() {
  const saving = ref(false)
  const error = ref<ErrorData>()

  async function read(): Promise<ReminderSettings | undefined> {
    const r = await invoke('reminders.settings', {})
    if (!r.ok) return void (error.value = r.error)
    return r.value
  }

  /** The settings as main kept them; undefined when not saved (or a save is under way). */
  async function save(settings: ReminderSettings): Promise<ReminderSettings | undefined> {
    if (saving.value) return
    saving.value = true
    const r = await invoke('reminders.saveSettings', settings)
    saving.value = false
    if (!r.ok) return void (error.value = r.error)
    error.value = undefined
    return r.value
  }

  return { read, save, saving, error }
}
