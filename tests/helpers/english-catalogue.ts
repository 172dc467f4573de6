/**
 * Vitest setup: the renderer's words in English, as main.ts would have loaded them before the
 * window mounts, for the unit tests of renderer modules that word things.
 */
import { useCatalogue } from '../../src/renderer/src/i18n/current'
import { en } from '@shared/i18n/locales/en'

useCatalogue('en', en)
