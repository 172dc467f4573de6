/**
 * Reminders notified once for the team (issue 50 point 3), through the app's real IPC router on
 * three running workstations (three data folders, three sets of services, each with a desktop that
 * keeps its notifications) against one throwaway PostgreSQL and one sandbox: their hourly checks at
 * once show each reminder on one desktop only, while every workstation lists it with its handling;
 * a fourth started later lists what is due and unhandled before its store has read anything, and
 * notifies nothing, then or after its first read. With the database away, a workstation notifies
 * as alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { headlessDesktop, type HeadlessDesktop } from '../../src/main/base/desktop'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { reminderKey, type DueReminder } from '@shared/portfolio/reminders'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { closeTeamWorkstations, openTeamWorkstation, type TeamWorkstation } from '../helpers/team-workstation'

let db: TestPostgres
let sb: Sandbox
const running: Array<{ w: TeamWorkstation; desktop: HeadlessDesktop }> = []
let later: { w: TeamWorkstation; desktop: HeadlessDesktop } | undefined

/** Every item within a year reminds, auto-renewing or not: several reminders for the account. */
const SETTINGS = { enabled: true, thresholds: [365, 30], includeAutorenewing: true }
let refreshes = 0
const refresh = (w: TeamWorkstation) =>
  w.calls.ok('store.refreshAccount', { accountId: w.accountId, callId: `refresh-${++refreshes}` })

/** A window's check as main answers it: every reminder due, claimed for the team, each shown on the desktop (its key as the body, to count). */
async function check(w: TeamWorkstation): Promise<DueReminder[]> {
  // Every one main finds due and claims (the window is told only the most urgent and how many).
  const due = await w.services.reminders.due()
  for (const d of due)
    await w.calls.ok('reminders.notify', {
      title: d.item.label,
      body: reminderKey(d),
      target: { kind: d.item.kind, accountId: d.item.accountId, id: d.item.id, serverKind: d.item.serverKind },
    })
  return due
}
const notified = (desktop: HeadlessDesktop) => desktop.notifications.map((n) => n.body)
/** What a workstation lists on "Expiring soon": each reminder's key and its handling. */
const listed = async (w: TeamWorkstation) =>
  Object.fromEntries(
    (await w.calls.ok('reminders.open', {})).map((r) => [
      reminderKey(r),
      r.handled ? `${r.handled.how} by ${r.handled.member}` : 'open',
    ]),
  )

beforeAll(async () => {
  db = await startTestPostgres()
  sb = await startSandbox({ domains: 20 })
  for (const [member, workstation] of [
    ['alice', 'host-a'],
    ['bob', 'host-b'],
    ['carol', 'host-c'],
  ] as const) {
    const desktop = headlessDesktop()
    const w = await openTeamWorkstation(db, sb, member, workstation, { desktop })
    running.push({ w, desktop })
    await w.calls.ok('reminders.saveSettings', SETTINGS)
    await refresh(w)
  }
}, 90_000)
afterAll(async () => {
  await closeTeamWorkstations([...running.map((r) => r.w), later?.w])
  await sb?.close()
  db?.remove()
})

describe('reminders notified once for the team', () => {
  it('three running workstations: one notification per reminder in the team; a fourth started later lists it without notifying', async () => {
    // The same reminders due on all three, from each one's own store.
    const keys = Object.keys(await listed(running[0]!.w)).sort()
    expect(keys.length).toBeGreaterThan(2)
    for (const { w } of running) expect(Object.keys(await listed(w)).sort()).toEqual(keys)

    // Their checks at once: each reminder on one desktop of the three, none twice.
    const due = await Promise.all(running.map(({ w }) => check(w)))
    expect(due.flat().map(reminderKey).sort()).toEqual(keys)
    expect(running.flatMap(({ desktop }) => notified(desktop)).sort()).toEqual(keys)

    // One handled on a workstation that did not notify it: every workstation lists it handled, the rest open.
    const quiet = running.findIndex((_, i) => !due[i]!.some((d) => reminderKey(d) === keys[0]))
    const handler = running[quiet]!.w
    await handler.calls.ok('reminders.handle', { accountId: handler.accountId, key: keys[0]!, how: 'acknowledged' })
    const member = ['alice', 'bob', 'carol'][quiet]
    const expected = Object.fromEntries(keys.map((k, i) => [k, i === 0 ? `acknowledged by ${member}` : 'open']))
    for (const { w } of running) expect(await listed(w)).toEqual(expected)

    // The next hour's checks notify nothing more.
    await Promise.all(running.map(({ w }) => check(w)))
    expect(running.flatMap(({ desktop }) => notified(desktop))).toHaveLength(keys.length)

    // A fourth workstation, started later: before its store has read the account it lists what
    // the team was notified of, as handled, and notifies nothing.
    const desktop = headlessDesktop()
    later = { w: await openTeamWorkstation(db, sb, 'dave', 'host-d', { desktop }), desktop }
    const dave = later.w
    await dave.calls.ok('reminders.saveSettings', SETTINGS)
    expect(await dave.calls.ok('reminders.expirations', { accountId: dave.accountId })).toEqual([])
    expect(await listed(dave)).toEqual(expected)
    expect(await check(dave)).toEqual([])
    // After its first read: the same list from its own store, and still nothing notified.
    await refresh(dave)
    expect((await dave.calls.ok('reminders.expirations', { accountId: dave.accountId })).length).toBeGreaterThan(0)
    expect(await listed(dave)).toEqual(expected)
    expect(await check(dave)).toEqual([])
    expect(notified(desktop)).toEqual([])
  })

  it('with the team database away, a workstation notifies what it finds due, as alone (a reminder twice rather than none)', async () => {
    const desktop = headlessDesktop()
    // Nothing listens on port 1: the database is away from the start.
    const away = { w: await openTeamWorkstation({ ...db, port: 1 }, sb, 'erin', 'host-e', { desktop }), desktop }
    running.push(away)
    expect(away.w.services.team.status()).toMatchObject({ mode: 'team', connected: false })
    await away.w.calls.ok('reminders.saveSettings', SETTINGS)
    await refresh(away.w)
    const keys = Object.keys(await listed(away.w)).sort()
    expect(keys.length).toBeGreaterThan(2)
    expect((await check(away.w)).map(reminderKey).sort()).toEqual(keys)
    expect(notified(desktop).sort()).toEqual(keys)
  })
})
