/** Calendar arithmetic on the service's YYYY-MM-DD dates, in UTC so no time zone moves a day. */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A YYYY-MM-DD date moved by whole months (years are 12 months); other text comes back as it is. */
export function addMonthsIso(value: string, months: number): string {
  const m = ISO_DATE.exec(value)
  if (!m) return value
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1 + months, Number(m[3])))
  return d.toISOString().slice(0, 10)
}

/** Today as YYYY-MM-DD in the local calendar. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
