/**
 * The domain list's formats made while it is read (issue 54): its first frame (an expiry date and
 * flag in every row, the stored list's as-of time) makes no Intl formatter of its own, whose first
 * one cost milliseconds between the list's arrival and its first paint. In both languages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, prepareListFormats, t } from '../../src/renderer/src/i18n'
import { useCatalogue } from '../../src/renderer/src/i18n/current'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'

/** The Intl formatters made while installed, by kind. */
const made: string[] = []
const originals = {
  DateTimeFormat: Intl.DateTimeFormat,
  NumberFormat: Intl.NumberFormat,
  PluralRules: Intl.PluralRules,
}
/** Each formatter's constructor, counting what it makes (each kind of Intl's is writable; the app makes them with `new`). */
function countMade() {
  const { DateTimeFormat, NumberFormat, PluralRules } = originals
  type Args<C extends abstract new (...args: never[]) => unknown> = ConstructorParameters<C>
  Reflect.set(
    Intl,
    'DateTimeFormat',
    class extends DateTimeFormat {
      constructor(...args: Args<typeof DateTimeFormat>) {
        made.push('DateTimeFormat')
        super(...args)
      }
    },
  )
  Reflect.set(
    Intl,
    'NumberFormat',
    class extends NumberFormat {
      constructor(...args: Args<typeof NumberFormat>) {
        made.push('NumberFormat')
        super(...args)
      }
    },
  )
  Reflect.set(
    Intl,
    'PluralRules',
    class extends PluralRules {
      constructor(...args: Args<typeof PluralRules>) {
        made.push('PluralRules')
        super(...args)
      }
    },
  )
}

beforeEach(() => {
  made.length = 0
})
afterEach(() => {
  for (const [kind, Original] of Object.entries(originals)) Reflect.set(Intl, kind, Original)
  useCatalogue('en', en)
})

describe.each([
  ['en', en],
  ['ja', ja],
] as const)('in %s', (lang, catalogue) => {
  it('the first row of the list and its as-of line make no formatter once the list formats are prepared', () => {
    useCatalogue(lang, catalogue)
    prepareListFormats()
    countMade()
    const date = formatDate('2026-12-24')
    const flag = t('domains.expiresIn', { days: 3 })
    const asOf = formatDateTime('2026-11-28T10:10:00.000Z')
    expect(made).toEqual([])
    // What they read is what they read without preparing.
    expect(date).toBe(
      new originals.DateTimeFormat(lang === 'ja' ? 'ja-JP' : 'en', { dateStyle: 'medium' }).format(
        new Date(2026, 11, 24),
      ),
    )
    expect(flag).toContain(new originals.NumberFormat(lang).format(3))
    expect(asOf).toContain(
      new originals.DateTimeFormat(lang === 'ja' ? 'ja-JP' : 'en', { dateStyle: 'medium' }).format(
        new Date('2026-11-28T10:10:00.000Z'),
      ),
    )
  })
})
