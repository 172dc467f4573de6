/**
 * Account marks and read-only accounts, through the real IPC router, profile file and sandbox:
 * the colour, tag and options are kept and validated; a read-only account's writes are refused
 * in main before anything is sent, whatever the renderer asks.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { DEMO_ACCOUNT_ID, confirmsByName, profileFieldsSchema } from '@shared/accounts'
import { english } from '../helpers/english'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'
import { z } from 'zod'

let sb: Sandbox
let dir: string
let services: AppServices

const { call, ok, send } = routerCalls(() => services)
const listed = async (id: string) => (await ok('accounts.list', {})).accounts.find((a) => a.id === id)

beforeAll(async () => {
  sb = await startSandbox({ domains: 5 })
  dir = mkdtempSync(join(tmpdir(), 'account-safety-'))
  services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
  })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

describe('colour, tag and options of a profile', () => {
  it('are saved, listed and read back from the file', async () => {
    const fields = {
      ...profileFor(sb, 'Reseller'),
      colour: 'red' as const,
      environment: 'production' as const,
      confirmByName: true,
      readOnly: false,
    }
    const { id } = await ok('accounts.create', { fields, apiKey: sb.keys.full, storage: 'session' })
    expect(await listed(id)).toMatchObject({
      colour: 'red',
      environment: 'production',
      confirmByName: true,
      readOnly: false,
    })
    const onDisk = z
      .object({ accounts: z.array(z.looseObject({ id: z.string() })) })
      .parse(JSON.parse(readFileSync(join(dir, 'accounts.json'), 'utf8')))
    expect(onDisk.accounts.find((a) => a.id === id)).toMatchObject({
      colour: 'red',
      environment: 'production',
      confirmByName: true,
    })
  })

  it('a colour outside the palette or an unknown tag is refused at the boundary', async () => {
    for (const wrong of [{ colour: '#ff0000' }, { environment: 'prod' }, { readOnly: 'yes' }]) {
      const r = await send('accounts.create', {
        fields: { ...profileFor(sb, 'Bad'), ...wrong },
        apiKey: sb.keys.full,
        storage: 'session',
      })
      expect(r, JSON.stringify(wrong)).toMatchObject({ ok: false, error: { code: 'ipc.invalidPayload' } })
    }
  })

  it('typing the name follows the tag unless it was set: on for production only', () => {
    const parse = (extra: object) => profileFieldsSchema.parse({ ...profileFor(sb, 'X'), ...extra })
    expect(confirmsByName(parse({ environment: 'production' }))).toBe(true)
    expect(confirmsByName(parse({ environment: 'staging' }))).toBe(false)
    expect(confirmsByName(parse({ environment: 'production', confirmByName: false }))).toBe(false)
    expect(confirmsByName(parse({ environment: 'test', confirmByName: true }))).toBe(true)
  })

  it('the demo is always slate and tagged test, and never read-only', async () => {
    expect(await listed(DEMO_ACCOUNT_ID)).toMatchObject({ colour: 'slate', environment: 'test', readOnly: false })
  })
})

describe('a read-only account', () => {
  let id: string
  beforeAll(async () => {
    ;({ id } = await ok('accounts.create', {
      fields: { ...profileFor(sb, 'Locked'), readOnly: true },
      apiKey: sb.keys.full,
      storage: 'session',
    }))
  })

  it('gets no write: neither a confirmed one nor one without confirmation, and nothing reaches the service', async () => {
    const domain = sb.state.domains[0]!.domainname
    const before = sb.received.length
    for (const [channel, operation, params] of [
      ['jobs.prepare', 'domains.expiration.renew', { domain, years: 1 }],
      ['jobs.submit', 'domains.transferlock.set', { domain, transfer_lock: 1 }],
    ] as const) {
      const r = await call(channel, { accountId: id, operation, items: [{ params }] })
      expect(r, operation).toMatchObject({ ok: false, error: { code: 'account.readOnly' } })
      if (!r.ok) expect(english(r.error)).toMatch(/read-only/)
    }
    // Not even the reads that describe a renewal's effect: the refusal comes first.
    expect(sb.received.slice(before)).toEqual([])
    expect((await ok('jobs.list', {})).filter((j) => j.accountId === id)).toEqual([])
  })

  it('made read-only while a confirmation is open: the confirmed job is refused and nothing is sent', async () => {
    const { id: other } = await ok('accounts.create', {
      fields: profileFor(sb, 'Soon locked'),
      apiKey: sb.keys.full,
      storage: 'session',
    })
    const domain = sb.state.domains[1]!.domainname
    const { job, token } = await ok('jobs.prepare', {
      accountId: other,
      operation: 'domains.expiration.renew',
      items: [{ params: { domain, years: 1 } }],
    })
    await ok('accounts.update', { id: other, fields: { ...profileFor(sb, 'Soon locked'), readOnly: true } })
    const before = sb.received.length
    expect(await call('jobs.start', { jobId: job.id, token })).toMatchObject({
      ok: false,
      error: { code: 'account.readOnly' },
    })
    expect(sb.received.slice(before)).toEqual([])
  })

  it('still reads, and writes again once read-only is turned off', async () => {
    expect((await call('domains.list', { accountId: id })).ok).toBe(true)
    // Turning read-only off guards the account less: its name, as typed, is checked by main.
    for (const typedName of [undefined, 'locked', 'Lock']) {
      const r = await call('accounts.update', {
        id,
        fields: { ...profileFor(sb, 'Locked'), readOnly: false },
        ...(typedName === undefined ? {} : { typedName }),
      })
      expect(r, String(typedName)).toMatchObject({
        ok: false,
        error: { code: 'account.lowerSafetyNeedsName', params: { name: 'Locked' } },
      })
    }
    expect(await listed(id)).toMatchObject({ readOnly: true })
    await ok('accounts.update', { id, fields: { ...profileFor(sb, 'Locked'), readOnly: false }, typedName: ' Locked ' })
    const domain = sb.state.domains[2]!.domainname
    const before = sb.received.length
    const job = await ok('jobs.submit', {
      accountId: id,
      operation: 'domains.transferlock.set',
      items: [{ params: { domain, transfer_lock: 1 } }],
    })
    expect(job.items[0]?.state).toBe('done')
    // The sandbox records what it receives: the empty records above are not a recorder switched off.
    expect(sb.received.slice(before).some((r) => r.method === 'PUT')).toBe(true)
  })
})

describe('a production account: every write is confirmed with its name typed', () => {
  it('has its name checked by main when the job starts, not only by the dialog', async () => {
    const fields = { ...profileFor(sb, 'Reseller Prod'), environment: 'production' as const }
    const { id } = await ok('accounts.create', { fields, apiKey: sb.keys.full, storage: 'session' })
    const domain = sb.state.domains[0]!.domainname
    const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew').length
    const before = renewals()
    const { job, token } = await ok('jobs.prepare', {
      accountId: id,
      operation: 'domains.expiration.renew',
      items: [{ params: { domain, years: 1 } }],
    })
    for (const accountName of [undefined, '', 'Reseller', 'reseller prod']) {
      const r = await call('jobs.start', {
        jobId: job.id,
        token,
        ...(accountName === undefined ? {} : { accountName }),
      })
      expect(r, String(accountName)).toMatchObject({
        ok: false,
        error: { code: 'job.accountNameRequired', params: { name: 'Reseller Prod' } },
      })
    }
    expect(renewals()).toBe(before)
    // The token was not used up by the refusals: with the name, it is sent once.
    const done = await ok('jobs.start', { jobId: job.id, token, accountName: ' Reseller Prod ' })
    expect(done.items[0]?.state).toBe('done')
    expect(renewals()).toBe(before + 1)
    // A write that is neither paid nor about ownership asks too: it cannot be submitted unconfirmed.
    const locks = () => sb.received.filter((r) => r.endpoint === 'domains.transferlock.set').length
    const locksBefore = locks()
    expect(
      await call('jobs.submit', {
        accountId: id,
        operation: 'domains.transferlock.set',
        items: [{ params: { domain, transfer_lock: 1 } }],
      }),
    ).toMatchObject({ ok: false, error: { code: 'job.confirmationRequired' } })
    const lock = await ok('jobs.prepare', {
      accountId: id,
      operation: 'domains.transferlock.set',
      items: [{ params: { domain, transfer_lock: 1 } }],
    })
    expect(lock.job).toMatchObject({ confirm: true, confirmByName: true })
    expect(await call('jobs.start', { jobId: lock.job.id })).toMatchObject({
      ok: false,
      error: { code: 'job.confirmationRequired' },
    })
    expect(await call('jobs.start', { jobId: lock.job.id, token: lock.token })).toMatchObject({
      ok: false,
      error: { code: 'job.accountNameRequired' },
    })
    expect(locks()).toBe(locksBefore)
    expect(
      (await ok('jobs.start', { jobId: lock.job.id, token: lock.token, accountName: 'Reseller Prod' })).items[0]?.state,
    ).toBe('done')
  })

  it('a DNS save of a production account is confirmed with its name too', async () => {
    const { id } = await ok('accounts.create', {
      fields: { ...profileFor(sb, 'DNS Prod'), environment: 'production' },
      apiKey: sb.keys.full,
      storage: 'session',
    })
    const domain = sb.state.domains[3]!.domainname
    const zone = await ok('domains.dns.get', { accountId: id, domain })
    const saves = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set').length
    const before = saves()
    const items = [
      {
        params: {
          domain,
          records: `${zone.records}
txt note "prod"`,
          ns_type: zone.ns_type ?? 'svc1',
        },
        guard: { records: zone.records },
      },
    ]
    expect(await call('jobs.submit', { accountId: id, operation: 'domains.dns.set', items })).toMatchObject({
      ok: false,
      error: { code: 'job.confirmationRequired' },
    })
    const { job, token } = await ok('jobs.prepare', { accountId: id, operation: 'domains.dns.set', items })
    expect(await call('jobs.start', { jobId: job.id, token })).toMatchObject({
      ok: false,
      error: { code: 'job.accountNameRequired' },
    })
    expect(saves()).toBe(before)
    expect((await ok('jobs.start', { jobId: job.id, token, accountName: 'DNS Prod' })).items[0]?.state).toBe('done')
    expect(saves()).toBe(before + 1)
  })

  it('the level is lowered only with the name as typed; lowering through the tag counts too', async () => {
    const fields = { ...profileFor(sb, 'Lower Me'), environment: 'production' as const }
    const { id } = await ok('accounts.create', { fields, apiKey: sb.keys.full, storage: 'session' })
    for (const lowered of [
      { ...fields, writeSafety: 'confirm' as const },
      { ...fields, writeSafety: 'none' as const },
      { ...fields, environment: 'test' as const },
    ]) {
      expect(await call('accounts.update', { id, fields: lowered }), JSON.stringify(lowered)).toMatchObject({
        ok: false,
        error: { code: 'account.lowerSafetyNeedsName' },
      })
      // The window cannot send the expected name in another field: only typedName is read.
      expect(
        await call('accounts.update', { id, fields: { ...lowered, name: 'Lower Me' }, typedName: 'Lower' }),
      ).toMatchObject({ ok: false })
    }
    expect(await listed(id)).toMatchObject({ environment: 'production' })
    // Raising asks nothing; the level is then written as a level.
    await ok('accounts.update', { id, fields: { ...fields, environment: 'test', writeSafety: 'name' } })
    expect(await listed(id)).toMatchObject({ environment: 'test', writeSafety: 'name' })
    await ok('accounts.update', {
      id,
      fields: { ...fields, environment: 'test', writeSafety: 'confirm' },
      typedName: 'Lower Me',
    })
    expect(await listed(id)).toMatchObject({ writeSafety: 'confirm' })
  })
})
