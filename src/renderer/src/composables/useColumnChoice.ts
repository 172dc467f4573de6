/**
 * Which columns of a list the user chose to show or hide, over what the window's width decides
 * (a column's `hideBelow`): kept in localStorage like the list's other preferences, so the choice
 * outlives a restart. A column the user never chose follows the width.
 */
import { ref } from 'vue'
import { z } from 'zod'
import type { Column } from '../components/data-table-column'

const savedChoice = z.record(z.string(), z.boolean())
type Choice = z.infer<typeof savedChoice>

function read(storageKey: string): Choice {
  try {
    const parsed = savedChoice.safeParse(JSON.parse(localStorage.getItem(storageKey) ?? '{}'))
    return parsed.success ? parsed.data : {}
  } catch {
    return {}
  }
}

export function useColumnChoice(storageKey: string) {
  const choice = ref<Choice>(read(storageKey))
  function save(next: Choice) {
    choice.value = next
    localStorage.setItem(storageKey, JSON.stringify(next))
  }
  return {
    choice,
    /** The columns as the table gets them: hidden ones left out, shown ones kept at any width. */
    apply<R>(columns: Column<R>[]): Column<R>[] {
      return columns.flatMap((c) => {
        const shown = choice.value[c.key]
        if (shown === undefined) return [c]
        return shown ? [{ ...c, hideBelow: 0, keptBelow: c.hideBelow }] : []
      })
    },
    set(key: string, shown: boolean) {
      save({ ...choice.value, [key]: shown })
    },
    /** Every column back to what the width decides. */
    reset() {
      save({})
    },
  }
}
