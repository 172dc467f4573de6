/**
 * Writes as jobs, through the real IPC router, the real journal file and the sandbox:
 * frozen parameters, confirmation tokens, unknown outcomes resolved from the service's log,
 * one write per target, and a journal that survives a restart.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { createApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { endpoints, WRITE_ENDPOINT_NAMES, type EndpointName } from '@shared/endpoints/table'
import { makeFixture, sampleOf, type Fixture } from '../helpers/operation-samples'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'
import { match } from '../helpers/matchers'

let sb: Sandbox
let dir: string
let services: AppServices
let accountId: string
/**
 * The same sandbox with the usual time-out, for writes a test holds there: the main account's 1.5 s (for the answers
 * lost here) ran out while a held write waited on a loaded machine, and made it unknown instead of on its way.
 */
let heldAccountId: string

async function boot(opts: { logCheckDelaysMs?: number[] } = {}) {
  return createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
    ...opts,
  })
}
const { call, ok, send } = routerCalls(() => services)
const puts = (endpoint: EndpointName) => sb.received.filter((r) => r.endpoint === endpoint)
/** How long a job's first write may take to reach the sandbox (journal, then the loopback): vi.waitFor's 1 s default is short on a loaded machine. */
const HELD_WAIT = { timeout: 10_000 }

beforeAll(async () => {
  sb = await startSandbox({ domains: 30 })
  dir = mkdtempSync(join(tmpdir(), 'jobs-'))
  services = await boot({ logCheckDelaysMs: [60_000] })
  const created = await ok('accounts.create', {
    fields: profileFor(sb, 'Main', 1500),
    apiKey: sb.keys.full,
    storage: 'session',
  })
  accountId = created.id
  heldAccountId = (
    await ok('accounts.create', { fields: profileFor(sb, 'Held'), apiKey: sb.keys.full, storage: 'session' })
  ).id
  // The domain list read in full, as the Domains screen does: a write that names a domain by its id is sent by its name.
  await ok('all.domains.list', { accountId, callId: 'read-domains' })
})
afterAll(async () => {
  await services.close()
  await sb.close()
})
afterEach(() => sb.faults.clear())

describe('confirmation is part of the call', () => {
  const confirmOps = WRITE_ENDPOINT_NAMES.filter((n) => endpoints[n].confirm)
  let fixture: Fixture
  beforeAll(async () => {
    fixture = await makeFixture(
      sb,
      createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths }),
    )
  })

  it('no write has a channel of its own: writes only go through jobs', async () => {
    for (const name of WRITE_ENDPOINT_NAMES) {
      expect(await send(name, { accountId }), name).toMatchObject({ ok: false, error: { code: 'ipc.unknownChannel' } })
    }
  })

  it.each(confirmOps)('%s: refused without the token of its confirmation, and sent once with it', async (name) => {
    const sample = sampleOf(name, fixture)
    const request = { accountId, operation: name, items: [{ params: sample.input }] }
    const before = sb.received.length
    expect(await call('jobs.submit', request)).toMatchObject({ ok: false, error: { code: 'job.confirmationRequired' } })
    const { job, token } = await ok('jobs.prepare', request)
    expect(job.confirm).toBe(true)
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(await call('jobs.start', { jobId: job.id })).toMatchObject({
      ok: false,
      error: { code: 'job.confirmationRequired' },
    })
    // One character off (never the same character: a token that ends in "x" stays wrong).
    const wrong = `${token!.slice(0, -1)}${token!.endsWith('x') ? 'y' : 'x'}`
    expect(await call('jobs.start', { jobId: job.id, token: wrong })).toMatchObject({
      ok: false,
      error: { code: 'job.confirmationRequired' },
    })
    // Reads made to describe the effect are allowed; the write itself was not sent.
    expect(sb.received.slice(before).filter((r) => r.method !== 'GET')).toEqual([])
    const done = await ok('jobs.start', { jobId: job.id, token })
    expect(done.items[0]?.state, JSON.stringify(done.items[0]?.error)).toMatch(/done|failed/)
    expect(sb.received.slice(before).filter((r) => r.method !== 'GET')).toHaveLength(1)
    // A token works once.
    expect(await call('jobs.start', { jobId: job.id, token })).toMatchObject({
      ok: false,
      error: { code: 'job.notPrepared' },
    })
  })
})

describe('a bulk renewal', () => {
  it('is frozen when prepared, states each domain’s dates, and sends exactly what was confirmed', async () => {
    const names = sb.state.domains.slice(0, 12).map((d) => d.domainname)
    const before = Object.fromEntries(sb.state.domains.slice(0, 12).map((d) => [d.domainname, d.expirationdate]))
    const items = names.map((domain) => ({ params: { domain, years: 2 } }))
    const { job, token } = await ok('jobs.prepare', { accountId, operation: 'domains.expiration.renew', items })
    for (const it of job.items) {
      const from = before[String(it.params.domain)]!
      expect(it.effect).toEqual({ from, to: `${Number(from.slice(0, 4)) + 2}${from.slice(4)}` })
    }
    // What the renderer does with its own copy afterwards changes nothing.
    items.forEach((i) => (i.params.years = 9))
    const n = puts('domains.expiration.renew').length
    const done = await ok('jobs.start', { jobId: job.id, token })
    expect(done.status).toBe('done')
    const sent = puts('domains.expiration.renew').slice(n)
    expect(sent).toHaveLength(12)
    expect(sent.map((r) => r.body)).toEqual(expect.arrayContaining(names.map((domain) => ({ domain, years: 2 }))))
    expect(done.items.every((i) => i.state === 'done')).toBe(true)
  })
})

describe('an answer lost after the service acted', () => {
  it.each([
    ['PUT', 'domains.transferlock.set', 'reset'],
    ['PUT', 'domains.autorenew.set', 'hang'],
    ['POST', 'domains.privatenameserver.create', 'reset'],
    ['POST', 'freedns.register', 'hang'],
  ] as const)(
    '%s %s (%s): outcome unknown, no second send without the user, then resolved from the log',
    async (_m, operation, lost) => {
      const d = sb.state.domains[20]!
      const params: Record<string, unknown> =
        operation === 'domains.transferlock.set'
          ? { domain: d.domainname, transfer_lock: d.transfer_lock ? 0 : 1 }
          : operation === 'domains.autorenew.set'
            ? { domain: d.domainname, autorenew_domain: d.autorenew_domain ? 0 : 1 }
            : operation === 'domains.privatenameserver.create'
              ? { domain: d.domainname, hostname: `ns9.${d.domainname}`, ipv4: '192.0.2.99' }
              : { sld: `lost-answer-${lost}`, tld: 'com', auth: 'txt' }
      sb.faults.inject(operation, { lostAnswer: lost, times: 1 })
      const n = puts(operation).length
      const job = await ok('jobs.submit', { accountId, operation, items: [{ params }] })
      expect(job.items[0]).toMatchObject({ state: 'unknown', error: { kind: lost === 'hang' ? 'timeout' : 'network' } })
      expect(puts(operation).length - n).toBe(1)

      // Anywhere in the app, the same write to the same target is refused while its outcome is unknown...
      expect(await call('jobs.submit', { accountId, operation, items: [{ params }] })).toMatchObject({
        ok: false,
        error: { kind: 'busy', code: 'job.targetUnknown' },
      })
      expect(puts(operation).length - n).toBe(1)

      // ...and the service's log says it received it, with the answer it gave.
      expect(await ok('jobs.checkLog', { jobId: job.id, index: 0 })).toBe('received')
      const [after] = (await ok('jobs.list', {})).filter((j) => j.id === job.id)
      expect(after?.items[0]).toMatchObject({
        state: 'done',
        resolvedFromLog: true,
        log: { status: 'received', entry: { request_id: match.stringMatching(/^req-/) } },
      })
      expect(sb.state.logs.some((l) => l.request_id === after?.items[0]?.log?.entry?.request_id)).toBe(true)
    },
  )

  it('a second send needs the user to ask for it knowing the risk', async () => {
    const d = sb.state.domains[21]!
    const params = { domain: d.domainname, transfer_lock: d.transfer_lock ? 0 : 1 }
    sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
    const first = await ok('jobs.submit', { accountId, operation: 'domains.transferlock.set', items: [{ params }] })
    expect(first.items[0]?.state).toBe('unknown')
    expect(
      (await call('jobs.submit', { accountId, operation: 'domains.transferlock.set', items: [{ params }] })).ok,
    ).toBe(false)
    const second = await ok('jobs.submit', {
      accountId,
      operation: 'domains.transferlock.set',
      items: [{ params }],
      secondSend: true,
    })
    expect(second.items[0]?.state).toBe('done')
  })

  it('a refused connection is a plain failure: nothing left this machine', async () => {
    const closed = await startSandbox()
    const url = closed.url
    await closed.close()
    const other = await ok('accounts.create', {
      fields: { ...profileFor(sb, 'Gone'), baseUrl: url },
      apiKey: 'k',
      storage: 'session',
    })
    const job = await ok('jobs.submit', {
      accountId: other.id,
      operation: 'domains.transferlock.set',
      items: [{ params: { domain: 'a.com', transfer_lock: 1 } }],
    })
    expect(job.items[0]).toMatchObject({ state: 'failed', error: { kind: 'network' } })
    await ok('accounts.remove', { id: other.id })
  })
})

describe('one write per target at a time', () => {
  it('a second job for a target that is being written fails that item without sending it', async () => {
    const d = sb.state.domains[22]!
    // The first write waits at the sandbox until the second has been tried.
    sb.faults.inject('domains.autorenew.set', { hold: true, times: 1 })
    const n = puts('domains.autorenew.set').length
    const first = ok('jobs.submit', {
      accountId: heldAccountId,
      operation: 'domains.autorenew.set',
      items: [{ params: { domain: d.domainname, autorenew_domain: 1 } }],
    })
    await vi.waitFor(() => expect(sb.faults.held()).toBe(1), HELD_WAIT)
    const second = await call('jobs.submit', {
      accountId: heldAccountId,
      operation: 'domains.autorenew.set',
      items: [{ params: { domain: d.domainname, autorenew_domain: 0 } }],
    })
    expect(second).toMatchObject({ ok: false, error: { code: 'job.targetBusy' } })
    sb.faults.release()
    expect((await first).items[0]?.state).toBe('done')
    expect(puts('domains.autorenew.set').length - n).toBe(1)
  })
})

describe('going on around held targets (issue 50)', () => {
  it('asked to, prepare leaves out the targets held (on their way, or of unknown outcome), each with its refusal; the rest is sent; the flag is checked at the boundary, and a submit does not take it', async () => {
    const [held, lostOne, free] = [sb.state.domains[27]!, sb.state.domains[28]!, sb.state.domains[29]!]
    sb.faults.inject('domains.autorenew.set', { lostAnswer: 'reset', times: 1 })
    const lost = await ok('jobs.submit', {
      accountId: heldAccountId,
      operation: 'domains.autorenew.set',
      items: [{ params: { domain: lostOne.domainname, autorenew_domain: 1 } }],
    })
    expect(lost.items[0]?.state).toBe('unknown')
    sb.faults.inject('domains.autorenew.set', { hold: true, times: 1 })
    const first = ok('jobs.submit', {
      accountId: heldAccountId,
      operation: 'domains.autorenew.set',
      items: [{ params: { domain: held.domainname, autorenew_domain: 1 } }],
    })
    await vi.waitFor(() => expect(sb.faults.held()).toBe(1), HELD_WAIT)
    try {
      const n = puts('domains.autorenew.set').length
      const request = {
        accountId: heldAccountId,
        operation: 'domains.autorenew.set' as const,
        items: [held, lostOne, free].map((d) => ({
          params: { domain: d.domainname, autorenew_domain: 0 },
          label: d.domainname,
        })),
      }
      expect(await call('jobs.prepare', request)).toMatchObject({ ok: false, error: { code: 'job.targetBusy' } })
      expect(await send('jobs.prepare', { ...request, skipBusy: 'yes' })).toMatchObject({
        ok: false,
        error: { code: 'ipc.invalidPayload' },
      })
      // A submit could not say what it left out: the flag is not its own, and it is refused as before.
      expect(await send('jobs.submit', { ...request, skipBusy: true })).toMatchObject({
        ok: false,
        error: { code: 'job.targetBusy' },
      })
      const prepared = await ok('jobs.prepare', { ...request, skipBusy: true })
      expect(prepared.job.items.map((it) => it.label)).toEqual([free.domainname])
      expect(prepared.leftOut).toEqual([
        {
          index: 0,
          label: held.domainname,
          error: { kind: 'busy', code: 'job.targetBusy', params: { targets: held.domainname } },
        },
        {
          index: 1,
          label: lostOne.domainname,
          error: { kind: 'busy', code: 'job.targetUnknown', params: { targets: lostOne.domainname } },
        },
      ])
      const done = await ok('jobs.start', {
        jobId: prepared.job.id,
        ...(prepared.token ? { token: prepared.token } : {}),
      })
      expect(done.items).toMatchObject([{ state: 'done', label: free.domainname }])
      expect(
        puts('domains.autorenew.set')
          .slice(n)
          .map((r) => r.path),
      ).toEqual([`/v1/domains/${free.domainname}/autorenew`])
    } finally {
      sb.faults.release()
    }
    expect((await first).items[0]?.state).toBe('done')
  })
})

describe('a domain named several ways is one target (issue 25)', () => {
  it('one job naming a domain by name, in upper case and by its id is refused at prepare; nothing is sent', async () => {
    const d = sb.state.domains[24]!
    const before = sb.received.length
    const r = await call('jobs.prepare', {
      accountId,
      operation: 'domains.expiration.renew',
      items: [
        { params: { domain: d.domainname, years: 1 } },
        { params: { domain: d.domainname.toUpperCase(), years: 1 } },
        { params: { domain: d.domainid, years: 1 } },
      ],
    })
    expect(r).toMatchObject({ ok: false, error: { code: 'job.duplicateTarget' } })
    expect(sb.received.slice(before).filter((x) => x.method !== 'GET')).toEqual([])
  })

  it('an id is sent as the name the store knows it by, and one the store cannot name is refused', async () => {
    const d = sb.state.domains[25]!
    const done = await ok('jobs.submit', {
      accountId,
      operation: 'domains.transferlock.set',
      items: [{ params: { domain: d.domainid, transfer_lock: d.transfer_lock ? 0 : 1 } }],
    })
    expect(done.items[0]).toMatchObject({
      state: 'done',
      target: `domain=${d.domainname}`,
      params: { domain: d.domainname },
    })
    expect(sb.received.filter((x) => x.endpoint === 'domains.transferlock.set').at(-1)?.path).toBe(
      `/v1/domains/${d.domainname}/transferlock`,
    )
    expect(
      await call('jobs.submit', {
        accountId,
        operation: 'domains.transferlock.set',
        items: [{ params: { domain: 987654, transfer_lock: 1 } }],
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalidPayload', issues: [{ code: 'field.domainIdUnknown', params: { id: '987654' } }] },
    })
  })

  it('an unknown outcome holds the domain however a later write spells it', async () => {
    const d = sb.state.domains[26]!
    sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
    const lost = await ok('jobs.submit', {
      accountId,
      operation: 'domains.transferlock.set',
      items: [{ params: { domain: d.domainname, transfer_lock: 0 } }],
    })
    expect(lost.items[0]!.state).toBe('unknown')
    for (const spelled of [
      d.domainname.toUpperCase(),
      d.domainname.replace(/^./, (c) => c.toUpperCase()),
      d.domainid,
    ]) {
      expect(
        await call('jobs.submit', {
          accountId,
          operation: 'domains.transferlock.set',
          items: [{ params: { domain: spelled, transfer_lock: 0 } }],
        }),
        String(spelled),
      ).toMatchObject({
        ok: false,
        error: { code: 'job.targetUnknown' },
      })
    }
  })
})

describe('a server named by its id or by its name is one target (issue 22)', () => {
  it('once the server list is stored: a write by name holds the server against a write by id, and the reverse', async () => {
    await ok('all.servers.list', { accountId: heldAccountId, callId: 'read-servers-a', kind: 'a' })
    const s = sb.state.servers.a[2]!
    for (const [firstRef, secondRef] of [
      [s.webname, s.webid],
      [s.webid, s.webname],
    ] as const) {
      sb.faults.inject('servers.autorenew.set', { hold: true, times: 1 })
      const n = puts('servers.autorenew.set').length
      const first = ok('jobs.submit', {
        accountId: heldAccountId,
        operation: 'servers.autorenew.set',
        items: [{ params: { kind: 'a', webid: firstRef, autorenew_server: 1 } }],
      })
      await vi.waitFor(() => expect(sb.faults.held()).toBe(1), HELD_WAIT)
      const second = await call('jobs.submit', {
        accountId: heldAccountId,
        operation: 'servers.autorenew.set',
        items: [{ params: { kind: 'a', webid: secondRef, autorenew_server: 0 } }],
      })
      expect(second, `${String(firstRef)} then ${String(secondRef)}`).toMatchObject({
        ok: false,
        error: { code: 'job.targetBusy' },
      })
      sb.faults.release()
      const done = await first
      expect(done.items[0]).toMatchObject({ state: 'done', target: `kind=a&webid=${s.webid}` })
      expect(puts('servers.autorenew.set').length - n).toBe(1)
    }
    // The write by name went out with the name in its path.
    expect(puts('servers.autorenew.set').some((r) => r.path === `/v1/${sb.serverPaths.a}/${s.webname}/autorenew`)).toBe(
      true,
    )
  })

  it('a name the app has not listed is its own target, the name as given', async () => {
    const s = sb.state.servers.c[0]!
    const job = await ok('jobs.submit', {
      accountId,
      operation: 'servers.autorenew.set',
      items: [{ params: { kind: 'c', webid: s.webname, autorenew_server: 1 } }],
    })
    expect(job.items[0]).toMatchObject({ state: 'done', target: `kind=c&webid=${s.webname}` })
  })

  it('an extension by name states the server’s dates in its confirmation, as one by id does', async () => {
    const s = sb.state.servers.b[2]!
    const { job } = await ok('jobs.prepare', {
      accountId,
      operation: 'servers.expiration.extend',
      items: [{ params: { kind: 'b', webid: s.webname, months: 3 } }],
    })
    expect(job.items[0]).toMatchObject({ label: s.webname, effect: { from: s.expirationdate } })
    expect(job.items[0]?.effect?.to).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    await ok('jobs.discard', { jobId: job.id })
  })
})

describe('the journal', () => {
  it('survives a quit in the middle of a bulk job: what was done, what was cut off, what was never sent', async () => {
    const names = sb.state.domains.slice(0, 9).map((d) => d.domainname)
    // Every renewal waits at the sandbox; the test lets the first two through.
    sb.faults.inject('domains.expiration.renew', { hold: true })
    const { job, token } = await ok('jobs.prepare', {
      accountId,
      operation: 'domains.expiration.renew',
      items: names.map((domain) => ({ params: { domain, years: 1 } })),
      concurrency: 2,
    })
    const base = puts('domains.expiration.renew').length
    const running = call('jobs.start', { jobId: job.id, token })
    // Quit once the first two have answered and the next two are on their way.
    await vi.waitFor(() => expect(sb.faults.held()).toBe(2), { timeout: 10_000 })
    sb.faults.release(2)
    await vi.waitFor(
      () =>
        expect(
          puts('domains.expiration.renew')
            .slice(base)
            .filter((r) => r.status === 200),
        ).toHaveLength(2),
      { timeout: 10_000 },
    )
    await vi.waitFor(() => expect(sb.faults.held()).toBe(2), { timeout: 10_000 })
    await services.close()
    void running
    sb.faults.clear()

    services = await boot({ logCheckDelaysMs: [60_000] })
    const [again] = (await ok('jobs.list', {})).filter((j) => j.id === job.id)
    expect(again?.status).toBe('interrupted')
    const states = again!.items.map((i) => i.state)
    expect(states.filter((s) => s === 'done').length).toBeGreaterThanOrEqual(2)
    expect(states).toContain('skipped')
    expect(states).toContain('unknown')
    expect(states.every((s) => s === 'done' || s === 'unknown' || s === 'skipped')).toBe(true)
    // Every renewal the service carried out is shown as done or unknown, never as not sent.
    const received = new Set(
      puts('domains.expiration.renew')
        .slice(base)
        .map((r) => sentBody(r, z.object({ domain: z.string() })).domain),
    )
    for (const it of again!.items)
      if (received.has(String(it.params.domain)) && it.state === 'skipped')
        throw new Error(`${it.label} was sent but shown as not sent`)
  })
})
