/**
 * Which expiry reminders are due, day by day with a fixed "today": each threshold once,
 * auto-renewing items left out unless asked for, a new expiry date starting them again, and
 * several thresholds reached at once reminding once, for the smallest.
 */
import { describe, expect, it } from 'vitest'
import { daysBetween, dueReminders } from '../../src/main/reminders/due'
import {
  DEFAULT_REMINDER_SETTINGS,
  parseThresholds,
  reminderItemKey,
  type ExpiringItem,
  type ReminderSettings,
} from '@shared/portfolio/reminders'

const item = (id: string, expires: string, extra: Partial<ExpiringItem> = {}): ExpiringItem => ({
  accountId: 'main',
  kind: 'domain',
  id,
  label: id,
  expires,
  autorenew: false,
  ...extra,
})

/** The reminders-sent record, as the store keeps it (by account, kind, key, date and threshold). */
class SentRecord {
  readonly thresholds = new Map<string, number[]>()
  sentFor = (i: ExpiringItem): number[] => this.thresholds.get(this.key(i)) ?? []
  add(i: ExpiringItem, t: number) {
    this.thresholds.set(this.key(i), [...this.sentFor(i), t])
  }
  private key = (i: ExpiringItem) => [i.accountId, i.kind, reminderItemKey(i), i.expires].join('|')
}

/** YYYY-MM-DD `n` days after `date`. */
const plus = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

/** Runs the app once a day from `from` for `days` days; what each day reminded of. */
function everyDay(
  items: ExpiringItem[],
  from: string,
  days: number,
  settings: ReminderSettings = DEFAULT_REMINDER_SETTINGS,
  sent = new SentRecord(),
) {
  const shown: { day: string; id: string; threshold: number; daysLeft: number }[] = []
  for (let n = 0; n < days; n++) {
    const day = plus(from, n)
    const r = dueReminders(items, settings, day, sent.sentFor)
    for (const m of r.marks) sent.add(m.item, m.threshold)
    for (const d of r.due) shown.push({ day, id: d.item.id, threshold: d.threshold, daysLeft: d.daysLeft })
  }
  return shown
}

describe('due reminders', () => {
  it('counts days between dates in the calendar, not in hours', () => {
    expect(daysBetween('2030-03-30', '2030-03-31')).toBe(1)
    expect(daysBetween('2030-01-01', '2031-01-01')).toBe(365)
    expect(daysBetween('2030-01-10', '2030-01-01')).toBe(-9)
    expect(daysBetween('2030-01-01', '')).toBeUndefined()
  })

  it('reminds of each threshold once, on the day it is reached, and never after expiry', () => {
    const shown = everyDay([item('a.example', '2030-06-01')], '2030-03-01', 120)
    expect(shown).toEqual([
      { day: '2030-04-02', id: 'a.example', threshold: 60, daysLeft: 60 },
      { day: '2030-05-02', id: 'a.example', threshold: 30, daysLeft: 30 },
      { day: '2030-05-25', id: 'a.example', threshold: 7, daysLeft: 7 },
      { day: '2030-05-31', id: 'a.example', threshold: 1, daysLeft: 1 },
    ])
  })

  it('with several thresholds reached at once (a first run 5 days before), reminds once for the smallest and counts the larger ones as sent', () => {
    const sent = new SentRecord()
    const first = dueReminders([item('a.example', '2030-01-06')], DEFAULT_REMINDER_SETTINGS, '2030-01-01', sent.sentFor)
    expect(first.due.map((d) => [d.threshold, d.daysLeft])).toEqual([[7, 5]])
    expect(first.marks.map((m) => m.threshold).sort((a, b) => a - b)).toEqual([7, 30, 60])
    for (const m of first.marks) sent.add(m.item, m.threshold)
    // The days after: nothing until the next threshold, 1 day before.
    expect(everyDay([item('a.example', '2030-01-06')], '2030-01-01', 10, DEFAULT_REMINDER_SETTINGS, sent)).toEqual([
      { day: '2030-01-05', id: 'a.example', threshold: 1, daysLeft: 1 },
    ])
  })

  it('leaves out items whose auto-renewal is in force, unless the user asked for them; unknown counts as off', () => {
    const items = [
      item('renews.example', '2030-01-05', { autorenew: true }),
      item('manual.example', '2030-01-05'),
      item('unknown.example', '2030-01-05', { autorenew: undefined }),
    ]
    const without = dueReminders(items, DEFAULT_REMINDER_SETTINGS, '2030-01-01', () => [])
    expect(without.due.map((d) => d.item.id)).toEqual(['manual.example', 'unknown.example'])
    expect(without.marks.map((m) => m.item.id)).not.toContain('renews.example')
    const withThem = dueReminders(
      items,
      { ...DEFAULT_REMINDER_SETTINGS, includeAutorenewing: true },
      '2030-01-01',
      () => [],
    )
    expect(withThem.due.map((d) => d.item.id)).toEqual(['manual.example', 'renews.example', 'unknown.example'])
  })

  it('starts again for a new expiry date (a renewal)', () => {
    const sent = new SentRecord()
    const before = everyDay([item('a.example', '2030-02-01')], '2030-01-20', 6, DEFAULT_REMINDER_SETTINGS, sent)
    expect(before.map((s) => s.threshold)).toEqual([30, 7])
    // Renewed by a year on 2030-01-26: the thresholds count towards the new date, from 60 again.
    const renewed = everyDay([item('a.example', '2031-02-01')], '2030-01-26', 400, DEFAULT_REMINDER_SETTINGS, sent)
    expect(renewed.map((s) => [s.day, s.threshold])).toEqual([
      ['2030-12-03', 60],
      ['2031-01-02', 30],
      ['2031-01-25', 7],
      ['2031-01-31', 1],
    ])
  })

  it('never reminds less urgently than a reminder already sent for that date, when the thresholds change', () => {
    const sent = new SentRecord()
    const items = [item('a.example', '2030-01-31'), item('b.example', '2030-06-01')]
    // 30 days before a.example: reminded for 30 (and 60 counted as sent).
    expect(everyDay(items, '2030-01-01', 1, DEFAULT_REMINDER_SETTINGS, sent).map((s) => [s.id, s.threshold])).toEqual([
      ['a.example', 30],
    ])
    // The user now wants 200, 7 and 1: b.example (151 days) is reminded for 200; a.example was told "30 days" already.
    const changed = { ...DEFAULT_REMINDER_SETTINGS, thresholds: [200, 7, 1] }
    expect(everyDay(items, '2030-01-01', 1, changed, sent).map((s) => [s.id, s.threshold])).toEqual([
      ['b.example', 200],
    ])
    expect(everyDay(items, '2030-01-02', 30, changed, sent).map((s) => [s.id, s.threshold, s.day])).toEqual([
      ['a.example', 7, '2030-01-24'],
      ['a.example', 1, '2030-01-30'],
    ])
  })

  it('tells items apart by account, kind and server kind', () => {
    const items = [
      item('101', '2030-01-05', { kind: 'server', serverKind: 'a', label: 'web1' }),
      item('101', '2030-01-05', { kind: 'server', serverKind: 'b', label: 'web1b' }),
      item('101', '2030-01-05', { kind: 'svcip', label: 'vip1' }),
      item('a.example', '2030-01-05', { accountId: 'other' }),
      item('a.example', '2030-01-05'),
    ]
    const sent = new SentRecord()
    expect(everyDay(items, '2030-01-01', 1, DEFAULT_REMINDER_SETTINGS, sent)).toHaveLength(5)
    expect(everyDay(items, '2030-01-02', 1, DEFAULT_REMINDER_SETTINGS, sent)).toHaveLength(0)
  })

  it('reminds on the day itself for a threshold of 0; nothing when off, expired or without a date', () => {
    const zero = { ...DEFAULT_REMINDER_SETTINGS, thresholds: [0] }
    expect(everyDay([item('a.example', '2030-01-03')], '2030-01-01', 5, zero)).toEqual([
      { day: '2030-01-03', id: 'a.example', threshold: 0, daysLeft: 0 },
    ])
    const items = [item('a.example', '2030-01-03'), item('gone.example', '2029-12-31'), item('nodate.example', '')]
    expect(dueReminders(items, { ...DEFAULT_REMINDER_SETTINGS, enabled: false }, '2030-01-01', () => [])).toEqual({
      due: [],
      marks: [],
    })
    expect(dueReminders(items, DEFAULT_REMINDER_SETTINGS, '2030-01-01', () => []).due.map((d) => d.item.id)).toEqual([
      'a.example',
    ])
  })

  it('puts the most urgent first', () => {
    const r = dueReminders(
      [item('b.example', '2030-01-20'), item('c.example', '2030-01-02'), item('a.example', '2030-01-20')],
      DEFAULT_REMINDER_SETTINGS,
      '2030-01-01',
      () => [],
    )
    expect(r.due.map((d) => [d.item.id, d.threshold])).toEqual([
      ['c.example', 1],
      ['a.example', 30],
      ['b.example', 30],
    ])
  })
})

describe('thresholds as typed', () => {
  it('takes whole days separated by commas or spaces, each once, largest first', () => {
    expect(parseThresholds('7, 60 30,30 1')).toEqual({ ok: true, value: [60, 30, 7, 1] })
    expect(parseThresholds('14、3')).toEqual({ ok: true, value: [14, 3] })
    expect(parseThresholds('0')).toEqual({ ok: true, value: [0] })
  })

  it('refuses what is not a whole number of days from 0 to 365, more than 8, or nothing', () => {
    expect(parseThresholds('7, 1.5')).toEqual({
      ok: false,
      code: 'reminders.thresholdNotNumber',
      params: { value: '1.5' },
    })
    expect(parseThresholds('-1')).toMatchObject({ ok: false, code: 'reminders.thresholdNotNumber' })
    expect(parseThresholds('366')).toEqual({
      ok: false,
      code: 'reminders.thresholdRange',
      params: { value: '366', max: 365 },
    })
    expect(parseThresholds('1 2 3 4 5 6 7 8 9')).toEqual({
      ok: false,
      code: 'reminders.thresholdsTooMany',
      params: { max: 8 },
    })
    expect(parseThresholds('1 2 3 4 5 6 7 8 8 8')).toEqual({ ok: true, value: [8, 7, 6, 5, 4, 3, 2, 1] })
    expect(parseThresholds(' , ')).toEqual({ ok: false, code: 'reminders.thresholdsNone' })
  })
})
