/**
 * What the team shares besides leases and journal, on a real PostgreSQL (issue 37 points 2, 4, 7):
 * an account identity found by the fingerprint only a key holder computes, history seen from both
 * workstations with its member, reminders handled once for the team.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import { accountFingerprint } from '../../src/main/team/fingerprint'
import { ensureSchema } from '../../src/main/team/schema'
import {
  domainHistory,
  driftFindings,
  handleReminder,
  recordDrift,
  recordHistory,
  reminderDue,
  shareAccount,
  sharedAccount,
} from '../../src/main/team/team-shared'
import { openConfiguredTeamLedger } from '../../src/main/team/open-team'
import { writeTeamSettings } from '../../src/main/team/team-settings'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor } from '../../support/team-ledgers'

let db: TestPostgres
let a: pg.Pool
let b: pg.Pool
let teamId: string
const alice = { member: 'alice', workstation: 'host-a' }
const bob = { member: 'bob', workstation: 'host-b' }

beforeAll(async () => {
  db = await startTestPostgres()
  a = poolFor(db)
  b = poolFor(db)
  teamId = (await ensureSchema(a, { create: true })).teamId
}, 60_000)
afterAll(async () => {
  await a?.end()
  await b?.end()
  db?.remove()
})

describe('team shared state', () => {
  it('an account identity is found from the same key on another workstation, not from another key', async () => {
    await shareAccount(
      a,
      {
        fingerprint: accountFingerprint('key-of-shop', teamId),
        label: 'Shop',
        colour: '#c33',
        tag: 'prod',
        writeSafety: 'confirm',
      },
      alice,
    )
    expect(await sharedAccount(b, accountFingerprint('key-of-shop', teamId))).toEqual({
      fingerprint: accountFingerprint('key-of-shop', teamId),
      label: 'Shop',
      colour: '#c33',
      tag: 'prod',
      writeSafety: 'confirm',
    })
    expect(await sharedAccount(b, accountFingerprint('another-key', teamId))).toBeUndefined()
    // The same key in another team is another fingerprint.
    expect(accountFingerprint('key-of-shop', '00000000-0000-4000-8000-000000000000')).not.toBe(
      accountFingerprint('key-of-shop', teamId),
    )
  })

  it('history is seen from both workstations with the member of each change, outside changes without one', async () => {
    await recordHistory(a, 'fp', 'example.com', { aspect: 'autorenew', from: 'off', to: 'on' }, alice)
    await recordHistory(b, 'fp', 'example.com', { aspect: 'nameservers', from: 'a', to: 'b' }, undefined)
    const seen = await domainHistory(b, 'fp', 'example.com')
    expect(seen.map((h) => h.by)).toEqual([alice, undefined])
    expect(seen[0]?.change).toEqual({ aspect: 'autorenew', from: 'off', to: 'on' })
  })

  it('a reminder is handled once for the team: the second member is told who handled it', async () => {
    await reminderDue(a, 'expiry:example.com:30', new Date('2027-01-01T00:00:00Z'))
    const shown = await reminderDue(b, 'expiry:example.com:30', new Date('2027-01-01T00:00:00Z'))
    expect(shown.handled).toBeUndefined()
    const [first, second] = await Promise.all([
      handleReminder(a, 'expiry:example.com:30', 'acknowledged', alice),
      handleReminder(b, 'expiry:example.com:30', 'calendar', bob),
    ])
    expect([first.mine, second.mine].filter(Boolean)).toHaveLength(1)
    const winner = first.mine ? first.reminder : second.reminder
    expect(second.reminder.handled).toEqual(winner.handled)
    expect(first.reminder.handled).toEqual(winner.handled)
  })

  it('a snooze that ran out may be handled again', async () => {
    await reminderDue(a, 'expiry:example.org:7', new Date('2027-01-01T00:00:00Z'))
    expect((await handleReminder(a, 'expiry:example.org:7', 'snoozed', alice, new Date(Date.now() - 1000))).mine).toBe(
      true,
    )
    const again = await handleReminder(b, 'expiry:example.org:7', 'acknowledged', bob)
    expect(again).toMatchObject({ mine: true, reminder: { handled: { how: 'acknowledged', by: bob } } })
  })

  it('drift findings are kept for the team with who found them', async () => {
    await recordDrift(a, 'fp', 'example.com', { aspect: 'nameservers' }, alice)
    expect(await driftFindings(b, 'fp')).toMatchObject([
      { domain: 'example.com', foundBy: 'alice', finding: { aspect: 'nameservers' } },
    ])
  })
})

describe('team mode as a data folder configures it', () => {
  it("opens the team ledger from team.json with accounts matched by the fingerprints of this workstation's keys", async () => {
    const dirA = mkdtempSync(join(tmpdir(), 'team-a-'))
    const dirB = mkdtempSync(join(tmpdir(), 'team-b-'))
    const connection = {
      host: db.host,
      port: db.port,
      database: db.database,
      user: db.user,
      sslmode: 'disable' as const,
    }
    try {
      expect(
        await openConfiguredTeamLedger(dirA, {
          accountIds: [],
          keyOf: async () => undefined,
          passwordOf: async () => undefined,
        }),
      ).toBeUndefined()
      await writeTeamSettings(dirA, { connection, ...alice })
      await writeTeamSettings(dirB, { connection, ...bob })
      // The same account under different local ids on the two workstations, the same key in both keychains.
      const la = await openConfiguredTeamLedger(dirA, {
        accountIds: ['shop-a'],
        keyOf: async () => 'key-of-shop',
        passwordOf: async () => undefined,
      })
      const lb = await openConfiguredTeamLedger(dirB, {
        accountIds: ['shop-b'],
        keyOf: async () => 'key-of-shop',
        passwordOf: async () => undefined,
      })
      if (!la || !lb) throw new Error('team mode not opened')
      try {
        const r = await la.claim(
          { accountId: 'shop-a', operation: 'domains.expiration.renew', target: 'shop.example' },
          { jobId: 'j', index: 0 },
        )
        expect(r.ok).toBe(true)
        expect(
          await lb.claim(
            { accountId: 'shop-b', operation: 'domains.expiration.renew', target: 'shop.example' },
            { jobId: 'k', index: 0 },
          ),
        ).toMatchObject({ ok: false, heldBy: alice })
        if (r.ok) await la.release(r.lease, 'unknown')
        expect((await lb.unknownTargets()).map((u) => u.ref)).toEqual([
          { accountId: 'shop-b', operation: 'domains.expiration.renew', target: 'shop.example' },
        ])
      } finally {
        await la.close()
        await lb.close()
      }
    } finally {
      rmSync(dirA, { recursive: true, force: true })
      rmSync(dirB, { recursive: true, force: true })
    }
  })
})
