/**
 * Expiry reminders through the real services, IPC router and portfolio store file: what the
 * stored lists of every account make due, recorded so that a reopened app does not remind
 * again, the next threshold and a renewal reminding anew, the settings kept in the store and
 * checked at the boundary, and a shown reminder's click reaching the page that asked.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import Database from 'libsql'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { headlessDesktop, type HeadlessDesktop } from '../../src/main/base/desktop'
import { DEFAULT_SERVER_PATHS } from '../../src/sandbox'
import type { PagedItem } from '@shared/endpoints/table'
import { reminderKey, SEPARATE_REMINDERS, type ReminderTarget } from '@shared/portfolio/reminders'
import { profileFor } from '../../support/profile'
import { APP, appSender, routerCalls } from '../helpers/router-calls'

const opened: string[] = []
const sender = appSender({ sendReminderOpen: (t: ReminderTarget) => !!opened.push(JSON.stringify(t)) })

let dir: string
let clock: Date
let services: AppServices | undefined
let desktop: HeadlessDesktop

async function start(): Promise<AppServices> {
  desktop = headlessDesktop()
  services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
    desktop,
    now: () => clock,
  })
  return services
}
const { call, ok, send } = routerCalls(() => services, sender)
/** What is due, as "account item threshold/days left". */
const due = async () => {
  const { mostUrgent, count } = await ok('reminders.due', {})
  // No test here has more due than the window shows one by one: the answer holds every one.
  expect(count).toBe(mostUrgent.length)
  return mostUrgent.map((d) => `${d.item.accountId} ${d.item.label} ${d.threshold}/${d.daysLeft}`)
}

const domain = (name: string, expirationdate: string, autorenew = 0): PagedItem<'domains.list'> => ({
  domainid: name.length,
  domainname: name,
  registrar: 'reg',
  expirationdate,
  autorenew,
  autorenew_all: 0,
  autorenew_domain: autorenew,
})
const READ = '2030-01-01T08:00:00.000Z'

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reminders-'))
  clock = new Date(2030, 0, 1, 9, 0) // 2030-01-01, 09:00 local time
  opened.length = 0
})
afterEach(async () => {
  await services?.close()
  services = undefined
})

describe('reminders of every account, from the store', () => {
  it('are recorded in the store file and not repeated after a reopen; the next threshold and a renewal remind again', async () => {
    let app = await start()
    const other = await ok('accounts.create', {
      fields: profileFor({ url: 'https://api.example.com/v1', serverPaths: DEFAULT_SERVER_PATHS }, 'Other'),
      apiKey: 'other-key-0123456789',
      storage: 'session',
    })
    await app.store.putList(
      'demo',
      'domains.list',
      {},
      [
        domain('soon.example', '2030-01-06'),
        domain('later.example', '2030-06-01'),
        domain('renews.example', '2030-01-03', 1),
      ],
      READ,
    )
    await app.store.putList(other.id, 'domains.list', {}, [domain('month.example', '2030-01-31')], READ)
    await app.store.putList(
      other.id,
      'servers.list',
      { kind: 'b' },
      [
        {
          webid: '77',
          webname: 'web77',
          paid: '',
          starttime: '2029-01-01',
          expirationdate: '2030-01-02',
          autorenew: 0,
          autorenew_all: 0,
          autorenew_server: 0,
          plan: 'x',
        },
      ],
      READ,
    )
    await app.store.putList(
      other.id,
      'svcips.list',
      {},
      [
        {
          vipid: '5',
          vipname: 'vip5',
          webname: '',
          domainname: '',
          paid: '',
          starttime: '2029-01-01',
          expirationdate: '2030-02-20',
          region: 'JP',
        },
      ],
      READ,
    )

    expect(await due()).toEqual([
      `${other.id} web77 1/1`,
      'demo soon.example 7/5',
      `${other.id} month.example 30/30`,
      `${other.id} vip5 60/50`,
    ])
    expect(await due()).toEqual([])
    await app.close()
    services = undefined

    // Reopened on the same folder: nothing again, the same day or the next.
    app = await start()
    expect(await due()).toEqual([])
    clock = new Date(2030, 0, 2, 9, 0)
    expect(await due()).toEqual([])
    // 1 day before soon.example: its last threshold.
    clock = new Date(2030, 0, 5, 9, 0)
    expect(await due()).toEqual(['demo soon.example 1/1'])
    // Renewed (an expiration list read later has the new date): its thresholds start again.
    await app.store.putList(
      'demo',
      'domains.expiration.list',
      {},
      [{ domainid: 1, domainname: 'soon.example', expirationdate: '2030-02-20' }],
      '2030-01-05T08:00:00.000Z',
    )
    expect(await due()).toEqual(['demo soon.example 60/46'])

    // The record itself, as any program reads the file: keyed by account, kind, item, date and threshold.
    const db = new Database(join(dir, 'portfolio.db'))
    const rows = z
      .array(
        z.object({
          account_id: z.string(),
          item_kind: z.string(),
          item_key: z.string(),
          expires: z.string(),
          threshold: z.number(),
        }),
      )
      .parse(
        db
          .prepare(
            "SELECT account_id, item_kind, item_key, expires, threshold FROM reminders_sent WHERE account_id = 'demo' ORDER BY expires, threshold",
          )
          .all([]),
      )
    db.close()
    expect(rows.map((r) => `${r.item_kind} ${r.item_key} ${r.expires} ${r.threshold}`)).toEqual([
      'domain soon.example 2030-01-06 1',
      'domain soon.example 2030-01-06 7',
      'domain soon.example 2030-01-06 30',
      'domain soon.example 2030-01-06 60',
      'domain soon.example 2030-02-20 60',
    ])
  })

  it('more due at once than are shown one by one: the window is told the most urgent and how many, and every one is recorded', async () => {
    const app = await start()
    // Nine domains, expiring one day after another from 2030-01-02: the soonest is the most urgent.
    const names = Array.from({ length: 9 }, (_, n) => `d${n + 1}.example`)
    await app.store.putList(
      'demo',
      'domains.list',
      {},
      names.map((name, n) => domain(name, `2030-01-${String(n + 2).padStart(2, '0')}`)),
      READ,
    )
    const { mostUrgent, count } = await ok('reminders.due', {})
    expect(count).toBe(9)
    expect(mostUrgent.map((d) => d.item.label)).toEqual(names.slice(0, SEPARATE_REMINDERS))
    // The rest were recorded as sent with them: asked again, none is due.
    expect(await ok('reminders.due', {})).toEqual({ mostUrgent: [], count: 0 })
  })

  it('include auto-renewing items only when the setting says so; settings are kept in the store and checked at the boundary', async () => {
    let app = await start()
    await app.store.putList('demo', 'domains.list', {}, [domain('renews.example', '2030-01-03', 1)], READ)
    expect(await ok('reminders.settings', {})).toEqual({
      enabled: true,
      thresholds: [60, 30, 7, 1],
      includeAutorenewing: false,
    })
    expect(await due()).toEqual([])

    for (const wrong of [
      { thresholds: [400] },
      { thresholds: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      { thresholds: [] },
      { thresholds: [1.5] },
      { thresholds: [-1] },
      { enabled: 'yes' },
    ]) {
      const r = await send('reminders.saveSettings', {
        enabled: true,
        thresholds: [7],
        includeAutorenewing: true,
        ...wrong,
      })
      expect(r, JSON.stringify(wrong)).toMatchObject({ ok: false, error: { code: 'ipc.invalidPayload' } })
    }
    // Duplicates are dropped before counting; the thresholds are kept largest first.
    const saved = await ok('reminders.saveSettings', {
      enabled: true,
      thresholds: [1, 14, 14, 3, 3, 3, 3, 3, 3, 3],
      includeAutorenewing: true,
    })
    expect(saved).toEqual({ enabled: true, thresholds: [14, 3, 1], includeAutorenewing: true })
    await app.close()
    services = undefined

    app = await start()
    expect(await ok('reminders.settings', {})).toEqual(saved)
    expect(await due()).toEqual(['demo renews.example 3/2'])
    await ok('reminders.saveSettings', { ...saved, enabled: false })
    clock = new Date(2030, 0, 2, 9, 0)
    expect(await due()).toEqual([])
  })

  it('lists every stored expiry date, of one account or of all, for the calendar', async () => {
    const app = await start()
    await app.store.putList(
      'demo',
      'domains.list',
      {},
      [domain('a.example', '2030-03-01'), domain('nodate.example', '')],
      READ,
    )
    const items = await ok('reminders.expirations', {})
    expect(items.map((i) => `${i.accountId} ${i.kind} ${i.id} ${i.expires}`)).toEqual([
      'demo domain a.example 2030-03-01',
    ])
    expect(await ok('reminders.expirations', { accountId: 'demo' })).toEqual(items)
    expect(await call('reminders.expirations', { accountId: 'Not An Id' })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload' },
    })
  })

  it('a reminder shown on the desktop opens its item in the page that asked, when clicked', async () => {
    await start()
    const target = { kind: 'server' as const, accountId: 'demo', id: '77', serverKind: 'b' as const }
    await ok('reminders.notify', { title: 'web77 expires tomorrow', body: 'Managed server of “Demo”', target })
    expect(desktop.notifications.map((n) => [n.title, n.body])).toEqual([
      ['web77 expires tomorrow', 'Managed server of “Demo”'],
    ])
    expect(opened).toEqual([])
    desktop.notifications[0]?.click()
    expect(opened.map((t): unknown => JSON.parse(t))).toEqual([target])
    expect(await call('reminders.notify', { title: '', body: 'x', target })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload' },
    })
  })

  it('alone: every reached reminder is listed with its handling, kept in the store file; one acknowledged or snoozed is not shown, a snooze run out opens it again', async () => {
    let app = await start()
    await app.store.putList(
      'demo',
      'domains.list',
      {},
      [
        domain('ack.example', '2030-01-06'),
        domain('snooze.example', '2030-01-07'),
        domain('open.example', '2030-01-08'),
      ],
      READ,
    )
    const open = async () =>
      Object.fromEntries((await ok('reminders.open', {})).map((r) => [r.item.label, r.handled?.how ?? 'open']))
    expect(await open()).toEqual({ 'ack.example': 'open', 'snooze.example': 'open', 'open.example': 'open' })
    const keyOf = async (label: string) =>
      reminderKey((await ok('reminders.open', {})).find((r) => r.item.label === label)!)

    expect(
      await ok('reminders.handle', { accountId: 'demo', key: await keyOf('ack.example'), how: 'acknowledged' }),
    ).toMatchObject({ mine: true, handled: { how: 'acknowledged' } })
    const snoozed = await ok('reminders.handle', {
      accountId: 'demo',
      key: await keyOf('snooze.example'),
      how: 'snoozed',
      snoozeDays: 2,
    })
    expect(snoozed.handled.snoozedUntil).toBe(new Date(clock.getTime() + 2 * 86_400_000).toISOString())
    // Handled twice: the first handling is kept. Alone, no member is named.
    const again = await ok('reminders.handle', { accountId: 'demo', key: await keyOf('ack.example'), how: 'calendar' })
    expect(again).toMatchObject({ mine: false, handled: { how: 'acknowledged' } })
    expect(again.handled.member).toBeUndefined()
    expect(await send('reminders.handle', { accountId: 'demo', key: 'x', how: 'forgotten' })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload' },
    })

    // Reopened: kept in the store; the notifications leave out what was handled.
    await app.close()
    app = await start()
    expect(await open()).toEqual({ 'ack.example': 'acknowledged', 'snooze.example': 'snoozed', 'open.example': 'open' })
    expect(await due()).toEqual(['demo open.example 7/7'])
    // Three days later the snooze has run out: it may be handled again.
    clock = new Date(clock.getTime() + 3 * 86_400_000)
    expect(
      await ok('reminders.handle', { accountId: 'demo', key: await keyOf('snooze.example'), how: 'acknowledged' }),
    ).toMatchObject({ mine: true })
  })
})
