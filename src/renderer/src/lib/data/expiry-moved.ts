/**
 * A renewal whose outcome is unknown, against a later read of the domain list: when the list was
 * read after the renewal was sent and shows the expiry past the date it had then, the service
 * most likely received it. Said, never acted on: only the service's log settles it.
 */
import type { JobItemView } from '@shared/jobs'

export interface ExpiryMoved {
  index: number
  label: string
  from: string
  to: string
}

export function expiryMoved(
  items: readonly JobItemView[],
  read: { readAt: string; expiryOf: (domain: string) => string | undefined },
): ExpiryMoved[] {
  const out: ExpiryMoved[] = []
  items.forEach((it, index) => {
    const from = it.effect?.from
    const domain = typeof it.params.domain === 'string' ? it.params.domain : it.label
    if (it.state !== 'unknown' || !from || !it.sentAt || read.readAt <= it.sentAt) return
    const now = read.expiryOf(domain.toLowerCase())
    if (now && now.slice(0, 10) > from.slice(0, 10)) out.push({ index, label: it.label, from, to: now })
  })
  return out
}
