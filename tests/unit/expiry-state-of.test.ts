import { describe, expect, it } from 'vitest'
import { attentionCountWork, expiryState, expiryStateOf } from '../../src/renderer/src/lib/data/expiry'
import { STEP } from '../../src/renderer/src/lib/sliced'

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

describe('attentionCountWork: the rows that need attention, counted in slices', () => {
  const today = new Date(2026, 10, 29)
  const stateOf = expiryStateOf(today, 30)
  const dates = [...daysFrom('2026-10-01', 120), 'soon', '2026-02-30']
  /** `n` rows, their dates taken from `dates` in a scattered order. */
  const rowsOf = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ expirationdate: dates[(i * 37) % dates.length]! }))
  const byRow = (rows: readonly { expirationdate: string }[]) =>
    rows.filter((r) => stateOf(r.expirationdate) !== 'ok').length

  it.each([0, 1, STEP - 1, STEP, STEP + 1, 3 * STEP + 17])(
    'of %i rows: the count row by row, a pause every STEP rows',
    (n) => {
      const rows = rowsOf(n)
      const work = attentionCountWork(rows, stateOf)
      let pauses = 0
      for (;;) {
        const step = work.next()
        if (step.done) {
          expect(step.value).toBe(byRow(rows))
          break
        }
        pauses++
      }
      expect(pauses).toBe(Math.max(0, Math.ceil(n / STEP) - 1))
    },
  )

  it('counts the expired, the expiring and what is no date, not the rest', () => {
    const rows = ['2026-10-01', '2026-11-29', '2026-12-29', '2026-12-30', 'soon', '2026-02-30'].map((d) => ({
      expirationdate: d,
    }))
    expect(rows.map((r) => stateOf(r.expirationdate))).toEqual(['expired', 'soon', 'soon', 'ok', 'unknown', 'expired'])
    const work = attentionCountWork(rows, stateOf)
    expect(work.next()).toEqual({ done: true, value: 5 })
  })
})
