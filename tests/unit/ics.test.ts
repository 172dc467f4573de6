/**
 * The iCalendar writer, read back as a calendar program reads it: lines end in CRLF and are at
 * most 75 octets, folded lines unfold to the value written, escaped text unescapes to it, and
 * every event has its all-day date, the next day as its end, its summary and a stable UID.
 */
import { describe, expect, it } from 'vitest'
import { escapeText, foldLine, icsCalendar, type CalendarEvent } from '../../src/renderer/src/lib/data/ics'
import { calendarUid, expiryCalendar } from '../../src/renderer/src/lib/data/expiry-calendar'
import { ja } from '@shared/i18n/locales/ja'
import { en } from '@shared/i18n/locales/en'
import { translate } from '@shared/i18n/translate'
import type { ReminderWords } from '../../src/renderer/src/lib/text/reminder-text'
import { readIcs, type IcsFile, type IcsProperty } from '../helpers/ics-reader'
import type { ExpiringItem } from '@shared/portfolio/reminders'

/** The file read back; a file that breaks a rule of its lines fails here, saying which. */
function parseIcs(text: string): IcsFile {
  const file = readIcs(text)
  expect(file.problems).toEqual([])
  return file
}
const prop = (props: IcsProperty[], name: string) => props.find((p) => p.name === name)
const encoder = new TextEncoder()

const STAMP = new Date(Date.UTC(2030, 0, 1, 9, 0, 0))

describe('iCalendar writer', () => {
  const events: CalendarEvent[] = [
    {
      uid: 'main.domain.a.example.2030-12-31@hosting-admin',
      date: '2030-12-31',
      summary: 'a.example, b; c\\d\nsecond line',
    },
    {
      uid: 'other.domain.jp.2032-02-29@hosting-admin',
      date: '2032-02-29',
      summary: translate(ja, 'ja', 'calendar.summary', {
        item: 'とても長い日本語のドメイン名の例です.jp',
        what: 'ドメイン',
        account: '東京オフィスの本番アカウント',
      }),
      description: '自動更新は有効です。',
    },
    { uid: 'x', date: '', summary: 'no date: left out' },
    {
      uid: 'main.server.a%2F77.2031-01-15@hosting-admin',
      date: '2031-01-15',
      summary: translate(en, 'en', 'calendar.summary', { item: 'web77', what: 'Server (Web)', account: 'Main' }),
    },
  ]
  const text = icsCalendar(events, {
    prodId: '-//Hosting Admin//Expiration dates//EN',
    stamp: STAMP,
    name: 'Expiration dates: All accounts',
  })
  // Read back in each test, so a writer that breaks a rule fails the test that says which.
  const parsed = () => parseIcs(text)

  it('is a VCALENDAR with VERSION 2.0 and a PRODID, in CRLF lines of at most 75 octets', () => {
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true)
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    expect(prop(parsed().calendar, 'VERSION')?.value).toBe('2.0')
    expect(prop(parsed().calendar, 'PRODID')?.value).toBe('-//Hosting Admin//Expiration dates//EN')
    expect(prop(parsed().calendar, 'X-WR-CALNAME')?.value).toBe('Expiration dates: All accounts')
    // The Japanese summary is long enough to be folded.
    expect(text).toMatch(/\r\n /)
  })

  it('has one all-day event per dated item: its date, the next day as the end, its summary unescaped and unfolded, and its UID', () => {
    const { events: read } = parsed()
    expect(read).toHaveLength(3)
    const dated = events.filter((e) => e.date)
    read.forEach((e, i) => {
      const want = dated[i]!
      const start = e.find((p) => p.name === 'DTSTART')
      const end = e.find((p) => p.name === 'DTEND')
      expect(start?.params).toEqual(['VALUE=DATE'])
      expect(end?.params).toEqual(['VALUE=DATE'])
      expect(start?.value).toBe(want.date.replace(/-/g, ''))
      expect(prop(e, 'SUMMARY')?.value).toBe(want.summary)
      expect(prop(e, 'UID')?.value).toBe(want.uid)
      expect(prop(e, 'DTSTAMP')?.value).toBe('20300101T090000Z')
      expect(prop(e, 'DESCRIPTION')?.value).toBe(want.description)
    })
    // The day after: across a year's end and a leap day.
    expect(read.map((e) => prop(e, 'DTEND')?.value)).toEqual(['20310101', '20320301', '20310116'])
  })

  it('escapes backslash, semicolon, comma and line breaks, and folds between characters', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf')
    const long = `SUMMARY:${'日本'.repeat(40)}`
    const folded = foldLine(long)
    expect(folded.replace(/\r\n /g, '')).toBe(long)
    for (const line of folded.split('\r\n')) expect(encoder.encode(line).length).toBeLessThanOrEqual(75)
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short')
    // Exactly 75 octets stays on one line; 76 folds.
    expect(foldLine('X'.repeat(75))).toBe('X'.repeat(75))
    expect(foldLine('X'.repeat(76))).toBe(`${'X'.repeat(75)}\r\n X`)
  })
})

describe('expiration dates as a calendar', () => {
  // What an English-speaking user reads, with two accounts of their own names.
  const names: Record<string, string> = { main: 'Main, Tokyo', other: 'Other' }
  const english: ReminderWords = {
    t: (key, params) => translate(en, 'en', key, params),
    formatDate: (d) => d,
    accountName: (id) => names[id] ?? id,
    kindLabel: (_id, kind) => ({ a: 'Web', b: 'Managed', c: 'Cloud' })[kind],
  }
  const items: ExpiringItem[] = [
    { accountId: 'other', kind: 'svcip', id: '5', label: 'vip5', expires: '2030-03-01', autorenew: false },
    {
      accountId: 'main',
      kind: 'domain',
      id: 'example.com',
      label: 'example.com',
      expires: '2030-02-01',
      autorenew: true,
    },
    {
      accountId: 'main',
      kind: 'server',
      id: '77',
      serverKind: 'a',
      label: 'web77',
      expires: '2030-02-15',
      autorenew: undefined,
    },
  ]

  it('words each item with what it is and whose, in date order, with UIDs that hold across exports', () => {
    const first = parseIcs(expiryCalendar(english, items, 'All accounts', STAMP))
    expect(
      first.events.map((e) => [prop(e, 'DTSTART')?.value, prop(e, 'SUMMARY')?.value, prop(e, 'DESCRIPTION')?.value]),
    ).toEqual([
      ['20300201', 'example.com expires (Domain, “Main, Tokyo”)', 'Auto-renewal is on.'],
      ['20300215', 'web77 expires (Server (Web), “Main, Tokyo”)', undefined],
      ['20300301', 'vip5 expires (Service IP, “Other”)', undefined],
    ])
    expect(prop(first.calendar, 'X-WR-CALNAME')?.value).toBe('Expiration dates: All accounts')
    const later = parseIcs(expiryCalendar(english, items, 'All accounts', new Date(Date.UTC(2030, 5, 1))))
    expect(later.events.map((e) => prop(e, 'UID')?.value)).toEqual(first.events.map((e) => prop(e, 'UID')?.value))
    const uids = new Set(first.events.map((e) => prop(e, 'UID')?.value))
    expect(uids.size).toBe(3)
    // A renewal is a new date, so a new event; a server's kind is part of its identity.
    expect(calendarUid({ ...items[1]!, expires: '2031-02-01' })).not.toBe(calendarUid(items[1]!))
    expect(calendarUid({ ...items[2]!, serverKind: 'b' })).not.toBe(calendarUid(items[2]!))
  })
})
