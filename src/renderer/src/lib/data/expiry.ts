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
