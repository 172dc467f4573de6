import { copyText } from '../data/bridge'

/**
 * The clipboard, which main writes: the page has no clipboard permission (every permission is
 * refused), so navigator.clipboard would fail in the app.
 */
export function useClipboard(): { copyText: (text: string) => Promise<boolean> } {
  return { copyText }
}
