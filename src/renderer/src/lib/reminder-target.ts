/** Where a reminder's notification leads: the screen of its item, or "Expiring soon". */
import type { ReminderTarget } from '../../../shared/reminders'

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
