import { ref } from 'vue'

/**
 * The app-wide status line: a success message shown once, in a polite live region in the
 * shell, so it survives the screen being replaced (another account, another item).
 */
export const currentNotice = ref<string>()

export function notify(text: string): void {
  currentNotice.value = text
}
