/**
 * The screens of the sidebar's main list, in its order, each with the catalogue's name the sidebar gives it. The
 * sidebar draws its links from here and the command palette finds screens by these names, so the two cannot list
 * different screens or name one two ways (the servers' screens, named per account, come before these in both).
 */
import type { MessageKey } from '@shared/i18n/catalogue'

export const SCREENS: readonly { to: string; label: MessageKey }[] = [
  { to: '/expiring', label: 'expiring.title' },
  { to: '/svcips', label: 'nav.svcips' },
  { to: '/domains', label: 'nav.domains' },
  { to: '/dns', label: 'nav.dns' },
  { to: '/freedns', label: 'nav.freedns' },
  { to: '/dns-bulk', label: 'nav.dnsBulk' },
  { to: '/health', label: 'health.title' },
  { to: '/search', label: 'nav.search' },
  { to: '/logs', label: 'nav.logs' },
  { to: '/jobs', label: 'nav.jobs' },
  { to: '/activity', label: 'nav.activity' },
  { to: '/accounts', label: 'nav.accounts' },
]
