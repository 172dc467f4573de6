/**
 * The language and catalogue in use. Apart from index.ts (which loads catalogues and keeps the
 * choice in the page's storage) so that the unit tests can use English without a page.
 */
import { ref, shallowRef } from 'vue'
import type { Catalogue, Locale } from '@shared/i18n/catalogue'

export const locale = ref<Locale>('en')
const catalogue = shallowRef<Catalogue>()

/** The catalogue in use: words asked for before one is loaded are a mistake, said at once. */
export function current(): Catalogue {
  if (!catalogue.value) throw new Error('i18n: no catalogue is loaded yet')
  return catalogue.value
}

/** Uses a loaded catalogue (setLocale does; so do the unit tests, with English). */
export function useCatalogue(l: Locale, c: Catalogue): void {
  catalogue.value = c
  locale.value = l
}
