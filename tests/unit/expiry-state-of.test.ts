import { describe, expect, it } from 'vitest'
import { expiryState, expiryStateOf } from '../../src/renderer/src/lib/data/expiry'

/** Every day from `from` for `days` days, as YYYY-MM-DD. */
const DAY = 86_400_000
const daysFrom = (from: string, days: number) =>
  Array.from({ length: days }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY).toISOString().slice(0, 10))

describe('expiryStateOf: the list-wide rule as text comparisons', () => {
  it('says what expiryState says for every day around today, each setting, across month and year ends', () => {
    for (const today of [new Date(2026, 11, 30, 23, 30), new Date(2026, 1, 27, 0, 5), new Date(2028, 1, 29, 12)]) {
      for (const soon of [30, 60, 90, 365]) {
        const stateOf = expiryStateOf(today, soon)
        for (const date of daysFrom('2025-10-01', 900)) {
          expect([date, stateOf(date)]).toEqual([date, expiryState(date, today, soon)])
        }
      }
    }
  })

  it('leaves what is no date, or no day of the calendar, to the exact rule', () => {
    const today = new Date(2026, 10, 29)
    const stateOf = expiryStateOf(today, 30)
    for (const date of ['', '2026-1-05', 'soon', '2026-02-30', '2026-13-01', '2026-12-01T00:00']) {
      expect([date, stateOf(date)]).toEqual([date, expiryState(date, today, 30)])
    }
  })
})
