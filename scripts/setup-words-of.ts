/** The catalogue's `setup.*` texts by language: what scripts/setup-words.json must hold. */
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'

export function setupWords(): Record<'en' | 'ja', Record<string, string>> {
  const part = (catalogue: Record<string, string>) =>
    Object.fromEntries(Object.entries(catalogue).filter(([k]) => k.startsWith('setup.')))
  return { en: part(en), ja: part(ja) }
}
