/** Dates as the service writes them: YYYY-MM-DD for days, "YYYY-MM-DD hh:mm:ss" (UTC) for moments. */

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10)
}

export function addDays(date: string | Date, days: number): string {
  const d = typeof date === 'string' ? new Date(`${date}T00:00:00Z`) : new Date(date)
  d.setUTCDate(d.getUTCDate() + days)
  return isoDate(d)
}

/** An empty date (a server never paid for) counts from today. */
export function addMonths(date: string, months: number): string {
  const d = new Date(`${date || isoDate(new Date())}T00:00:00Z`)
  d.setUTCMonth(d.getUTCMonth() + months)
  return isoDate(d)
}

export function dateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ')
}
