import { STEP, type Sliced } from '../sliced'

/** How far away an expiration date is, for highlighting what needs attention. */
export type ExpiryState = 'expired' | 'soon' | 'ok' | 'unknown'

const DAY = 86_400_000

export function daysUntil(date: string, today = new Date()): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!m) return undefined
  const then = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  const now = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())
  return Math.round((then - now) / DAY)
}

/** The choices of how near an expiration needs attention, in days. */
export const ATTENTION_DAY_CHOICES = [30, 60, 90, 365] as const
export type AttentionDays = (typeof ATTENTION_DAY_CHOICES)[number]
export const DEFAULT_ATTENTION_DAYS: AttentionDays = 30

export function expiryState(date: string, today = new Date(), soonDays: number = DEFAULT_ATTENTION_DAYS): ExpiryState {
  const d = daysUntil(date, today)
  if (d === undefined) return 'unknown'
  if (d < 0) return 'expired'
  return d <= soonDays ? 'soon' : 'ok'
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * `expiryState` for one day and one setting, for a whole list: today's and the last "soon" day's
 * dates are worked out once, and each date is compared with them as text (an ISO date sorts as
 * text as it does in time). The domain list counts what needs attention among 10,000 or 100,000
 * rows whenever the list comes, where a date parsed per row was most of the count's cost.
 */
export function expiryStateOf(
  today = new Date(),
  soonDays: number = DEFAULT_ATTENTION_DAYS,
): (date: string) => ExpiryState {
  const day0 = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())
  const first = isoDay(day0)
  const lastSoon = isoDay(day0 + soonDays * DAY)
  return (date) => {
    if (!ISO_DATE.test(date)) return 'unknown'
    // A date the calendar has not (2026-02-30) is left to the exact rule.
    if (date.slice(8) > '28' || date.slice(5, 7) > '12') return expiryState(date, today, soonDays)
    return date < first ? 'expired' : date <= lastSoon ? 'soon' : 'ok'
  }
}

/**
 * Adds each row's expiry date from `from` to `to` to `tally`. A small function of its own, and nothing
 * but the count in it: run once per list, a loop inside a larger function had V8 compile all of that
 * function on the stack, and a date's state asked in the loop had it inline that too (up to 12.7 ms of
 * its compilers at 10,000 rows, on a thread beside the window's main thread between the list's arrival
 * and its first paint: issue 54, --trace-opt).
 */
function tallyDates(rows: readonly { expirationdate: string }[], from: number, to: number, tally: Map<string, number>) {
  for (let i = from; i < to; i++) {
    const date = rows[i]!.expirationdate
    tally.set(date, (tally.get(date) ?? 0) + 1)
  }
}

/**
 * How many rows are expired or expiring (not 'ok'), pausing every STEP rows (sliced.ts): the rows are
 * counted per date, then each date's state is asked once (a few hundred dates among 100,000 rows).
 */
export function* attentionCountWork(
  rows: readonly { expirationdate: string }[],
  stateOf: (date: string) => ExpiryState,
): Sliced<number> {
  const tally = new Map<string, number>()
  for (let from = 0; from < rows.length; from += STEP) {
    tallyDates(rows, from, Math.min(rows.length, from + STEP), tally)
    if (from + STEP < rows.length) yield
  }
  let n = 0
  for (const [date, count] of tally) if (stateOf(date) !== 'ok') n += count
  return n
}
