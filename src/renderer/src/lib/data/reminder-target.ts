/** Where a reminder's notification leads: the screen of its item, or "Expiring soon". */
import type { ExpiringItem, ReminderTarget } from '@shared/portfolio/reminders'
import { serverRefOf } from '@shared/service/server-ref'

/**
 * What a notification opens: the item in its account. A server opens by its name, like every
 * other link to a server page; its label is that name (or its id when the list gave none).
 */
export function reminderTarget(item: ExpiringItem): ReminderTarget {
  const id = item.kind === 'server' ? serverRefOf({ webid: item.id, webname: item.label }) : item.id
  return { kind: item.kind, accountId: item.accountId, id, ...(item.serverKind ? { serverKind: item.serverKind } : {}) }
}

export function targetRoute(target: ReminderTarget): string {
  switch (target.kind) {
    case 'domain':
      return `/domains/${encodeURIComponent(target.id)}`
    case 'server':
      return `/servers/${target.serverKind ?? 'a'}/${encodeURIComponent(target.id)}`
    case 'svcip':
      return `/svcips/${encodeURIComponent(target.id)}`
    case 'overview':
      return '/expiring'
  }
}
