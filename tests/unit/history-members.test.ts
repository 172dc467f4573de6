/**
 * Every parameter a write can send is a member a history entry may show ("Months: 1 → 3"): each
 * has its label in both catalogues, so no raw catalogue key ("history.member.months") reaches the
 * screen, whichever write is added next.
 */
import { describe, expect, it } from 'vitest'
import { endpoints, WRITE_ENDPOINT_NAMES } from '@shared/endpoints/table'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'

const members = [...new Set(WRITE_ENDPOINT_NAMES.flatMap((n) => Object.keys(endpoints[n].params.shape)))].sort()

describe('history member labels', () => {
  it('has a label for every parameter of every write, in English and Japanese', () => {
    expect(members.length).toBeGreaterThan(20)
    for (const [name, catalogue] of [
      ['en', en],
      ['ja', ja],
    ] as const) {
      const missing = members.filter((m) => !(`history.member.${m}` in catalogue))
      expect(missing, name).toEqual([])
    }
  })
})
