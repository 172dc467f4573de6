/**
 * Every link to a server page names the server by its name (issue 22): the list, "Expiring
 * soon", the command palette and a reminder's notification. Old links by id keep working
 * (the e2e specs open both); here, what each link is made of.
 */
import { describe, expect, it } from 'vitest'
import { serverLink } from '../../src/renderer/src/lib/data/server-link'
import { reminderTarget, targetRoute } from '../../src/renderer/src/lib/data/reminder-target'
import type { ExpiringItem } from '@shared/portfolio/reminders'

describe('links to a server page', () => {
  it('by the name, or by the id where the name cannot stand in a path or would read as an id', () => {
    expect(serverLink('b', { webid: '13', webname: 'bcedar1' })).toBe('/servers/b/bcedar1')
    expect(serverLink('a', { webid: '13', webname: '' })).toBe('/servers/a/13')
    expect(serverLink('a', { webid: '13', webname: '2048' })).toBe('/servers/a/13')
    expect(serverLink('a', { webid: '13', webname: 'web.site/x' })).toBe('/servers/a/13')
  })

  it('a reminder opens a server by its name, and everything else as before', () => {
    const server: ExpiringItem = {
      accountId: 'main',
      kind: 'server',
      id: '13',
      serverKind: 'c',
      label: 'ccoral1',
      expires: '2030-01-06',
      autorenew: false,
    }
    expect(reminderTarget(server)).toEqual({ kind: 'server', accountId: 'main', id: 'ccoral1', serverKind: 'c' })
    expect(targetRoute(reminderTarget(server))).toBe('/servers/c/ccoral1')
    // A server the list gave no name: its label is its id.
    expect(targetRoute(reminderTarget({ ...server, label: '13' }))).toBe('/servers/c/13')
    const domain: ExpiringItem = {
      accountId: 'main',
      kind: 'domain',
      id: 'a.example',
      label: 'a.example',
      expires: '2030-01-06',
      autorenew: false,
    }
    expect(reminderTarget(domain)).toEqual({ kind: 'domain', accountId: 'main', id: 'a.example' })
    expect(targetRoute(reminderTarget({ ...domain, kind: 'svcip', id: '4', label: 'vip4' }))).toBe('/svcips/4')
  })
})
