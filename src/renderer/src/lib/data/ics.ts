/**
 * An iCalendar file (RFC 5545) of all-day events, for a team calendar to import or subscribe
 * to: CRLF line endings, lines folded at 75 octets (never inside a UTF-8 character), and the
 * text values escaped. Pure: the caller words the events and gives the time of writing.
 */
import { piecesByBytes } from '@shared/formats/byte-pieces'

export interface CalendarEvent {
  /** The same for the same event in every export, so a calendar updates it instead of adding a copy. */
  uid: string
  /** The day, YYYY-MM-DD. */
  date: string
  summary: string
  description?: string | undefined
}

export interface CalendarOptions {
  /** Who made the file (PRODID), as "-//Company//Product//EN". */
  prodId: string
  /** When the file was written (DTSTAMP of every event). */
  stamp: Date
  /** The calendar's name as most programs show it (X-WR-CALNAME). */
  name?: string | undefined
}

/** A TEXT value: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

const encoder = new TextEncoder()
const octets = (s: string) => encoder.encode(s).length

/**
 * A content line folded so no line is longer than 75 octets (RFC 5545 3.1): each continuation
 * starts with a space, which counts in its 75. Split between characters, never inside one.
 */
export function foldLine(line: string): string {
  if (octets(line) <= 75) return line
  return piecesByBytes(line, (index) => (index === 0 ? 75 : 74)).join('\r\n ')
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** YYYY-MM-DD as a DATE value, and the day after it (an all-day event's DTEND is exclusive). */
function dateValues(date: string): { start: string; end: string } | undefined {
  const m = ISO_DATE.exec(date)
  if (!m) return undefined
  const next = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1))
  const day = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '')
  return { start: `${m[1]}${m[2]}${m[3]}`, end: day(next) }
}

/** A UTC DATE-TIME: 20300101T090000Z. */
const utcStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

/** The calendar, every line ending in CRLF. Events whose date is not YYYY-MM-DD are left out. */
export function icsCalendar(events: readonly CalendarEvent[], opts: CalendarOptions): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(opts.prodId)}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ]
  if (opts.name) lines.push(`X-WR-CALNAME:${escapeText(opts.name)}`)
  const stamp = utcStamp(opts.stamp)
  for (const e of events) {
    const dates = dateValues(e.date)
    if (!dates) continue
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(e.uid)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${dates.start}`,
      `DTEND;VALUE=DATE:${dates.end}`,
      `SUMMARY:${escapeText(e.summary)}`,
      ...(e.description ? [`DESCRIPTION:${escapeText(e.description)}`] : []),
      // A reminder of a date: it takes no time in anyone's day.
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    )
  }
  lines.push('END:VCALENDAR')
  return lines.map(foldLine).join('\r\n') + '\r\n'
}
