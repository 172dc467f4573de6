/**
 * The IPC boundary with the real router, the real account store in a temp folder, the
 * real keychain (under npm test's D-Bus session) and the sandbox API.
 */
import { mkdtempSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import {
  KeytarSecretStore,
  loadKeytar,
  SessionSecretStore,
  type SecretStore,
} from '../../src/main/accounts/secret-store'
import { createApiClient } from '../../src/main/http'
import { ENDPOINT_NAMES, PAGED_ENDPOINT_NAMES, isWriteEndpoint, type EndpointName } from '@shared/endpoints/table'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { buildApi } from '@shared/ipc/build-api'
import { CHANNEL_NAMES, type ChannelName } from '@shared/ipc/channels'
import type { Call, Progress, Result } from '@shared/ipc/contract'
import { callOver } from '@shared/ipc/call-over'
import { ERROR_KINDS } from '@shared/errors'
import { english } from '../helpers/english'
import { makeFixture, sampleOf, type Fixture } from '../helpers/operation-samples'
import { asGuardedItem } from '../helpers/zone-guard'
import { carryInParts, readInParts } from '../../src/renderer/src/data/stored-parts'
import { storedWhoisPrivacy } from '../../src/renderer/src/data/stored-whois-privacy'
import { STORED_FIRST_PART_SIZE, STORED_PART_SIZE } from '@shared/portfolio'
import { profileFor } from '../../support/profile'

const APP = 'app://app'
/** What accounts.create answers, of what these tests read, from the router's untyped dispatch. */
const madeAccount = z.object({ id: z.string() })
const appSender = (progress: Progress[] = []) => ({
  url: `${APP}/index.html`,
  key: 'page',
  sendProgress: (p: Progress) => progress.push(p),
  sendJob: () => true,
})
const keychainService = `hosting-admin-test-${randomUUID()}`
const useRealKeychain = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)

let sb: Sandbox
let services: AppServices
let keychain: SecretStore

beforeAll(async () => {
  sb = await startSandbox()
  keychain = useRealKeychain ? new KeytarSecretStore(await loadKeytar(), keychainService) : new SessionSecretStore()
  services = await createAppServices({
    userDataDir: mkdtempSync(join(tmpdir(), 'ipc-')),
    allowedOrigins: [APP],
    keychain: async () => keychain,
  })
})
afterAll(async () => {
  const { accounts } = await services.accounts.list()
  for (const a of accounts) if (!a.demo) await keychain.delete(a.id)
  await services.close()
  await sb.close()
})

function isResult(r: unknown): r is Result<unknown> {
  if (typeof r !== 'object' || r === null || !('ok' in r)) return false
  if (r.ok === true) return 'value' in r
  // An error is a kind and a code the catalogue can word.
  const error = 'error' in r && typeof r.error === 'object' && r.error !== null ? r.error : undefined
  return (
    r.ok === false &&
    error !== undefined &&
    'code' in error &&
    typeof error.code === 'string' &&
    'kind' in error &&
    ERROR_KINDS.some((k) => k === error.kind)
  )
}

describe('sender check', () => {
  it.each([
    'https://evil.example.com/page',
    'file:///etc/passwd',
    'http://127.0.0.1:9999/',
    '',
    'not a url',
    'app://other/index.html',
  ])('refuses a message from %j before looking at it', async (url) => {
    const r = await services.router.dispatch(
      'accounts.list',
      {},
      { url, key: 'x', sendProgress: () => undefined, sendJob: () => true },
    )
    expect(r).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
  })
  it('accepts the app’s own page', async () => {
    const r = await services.router.dispatch('accounts.list', {}, appSender())
    expect(r.ok).toBe(true)
  })
})

describe('payload validation', () => {
  it('an unknown channel and a malformed payload get typed validation errors', async () => {
    expect(await services.router.dispatch('shell.exec', {}, appSender())).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    })
    const r = await services.router.dispatch(
      'jobs.prepare',
      { accountId: 'demo', operation: 'domains.expiration.renew', items: [{ params: { domain: 'a.com', years: 12 } }] },
      appSender(),
    )
    expect(r).toMatchObject({ ok: false, error: { kind: 'validation', issues: [{ path: 'items.0.years' }] } })
  })

  it('fuzz: 10,000 random payloads across every channel each get a Result, with no crash and no hang', async () => {
    const channelArb = fc.constantFrom(...CHANNEL_NAMES, 'nope', 'accounts', '__proto__')
    const nearValid = fc.record(
      {
        accountId: fc.oneof(fc.constant('demo'), fc.string({ maxLength: 70 })),
        id: fc.oneof(fc.constant('demo'), fc.uuid(), fc.string()),
        callId: fc.oneof(fc.uuid(), fc.string()),
        jobId: fc.oneof(fc.uuid(), fc.string()),
        domain: fc.oneof(fc.domain(), fc.string(), fc.integer()),
        kind: fc.constantFrom('a', 'b', 'c', 'd', ''),
        webid: fc.oneof(fc.integer(), fc.string()),
        vipid: fc.oneof(fc.integer(), fc.string()),
        limit: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.string()),
        page: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(null)),
        years: fc.integer({ min: -2, max: 12 }),
        records: fc.string({ maxLength: 200 }),
        apiKey: fc.string({ maxLength: 50 }),
      },
      { requiredKeys: [] },
    )
    const payloadArb = fc.oneof(fc.anything({ maxDepth: 3 }), nearValid)
    const runs = 10_000
    let answered = 0
    await fc.assert(
      fc.asyncProperty(channelArb, payloadArb, async (channel, payload) => {
        const r = await Promise.race([
          services.router.dispatch(channel, payload, appSender()),
          new Promise((_, reject) => setTimeout(() => reject(new Error(`hang on ${channel}`)), 15_000)),
        ])
        answered++
        return isResult(r)
      }),
      { numRuns: runs, seed: 20261122 },
    )
    expect(answered).toBe(runs)
    expect(services.router.activeJobs).toBe(0)
  }, 300_000)
})

describe('what an account accepts', () => {
  it.each([
    ['a non-ASCII character', 'sk_live_ключ_0123'],
    ['a line break inside', 'sk_live_abc\ndef'],
    ['a space inside', 'sk_live abc'],
  ])('an API key with %s is refused when entered, and nothing is stored', async (_what, apiKey) => {
    const before = (await services.accounts.list()).accounts.length
    const r = await services.router.dispatch(
      'accounts.create',
      { fields: profileFor(sb, 'Bad key'), apiKey, storage: 'session' },
      appSender(),
    )
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'validation', issues: [{ path: 'apiKey', code: 'field.apiKeyChars' }] },
    })
    if (r.ok) throw new Error('the key was accepted')
    expect(english(r.error)).toMatch(/cannot be sent in a request header/)
    expect((await services.accounts.list()).accounts).toHaveLength(before)
  })

  it('a base URL that holds the key is refused, on create and on a later edit or key change', async () => {
    const apiKey = 'sk_live_0123456789abcdef'
    const withKey = { ...profileFor(sb, 'Key in URL'), baseUrl: `${sb.url}/${apiKey}` }
    const r = await services.router.dispatch(
      'accounts.create',
      { fields: withKey, apiKey, storage: 'session' },
      appSender(),
    )
    expect(r).toMatchObject({ ok: false, error: { code: 'account.keyInBaseUrl', issues: [{ path: 'baseUrl' }] } })
    if (r.ok) throw new Error('the base URL was accepted')
    expect(english(r.error)).toMatch(/base URL contains the API key/)

    const made = await services.router.dispatch(
      'accounts.create',
      { fields: profileFor(sb, 'Fine'), apiKey, storage: 'session' },
      appSender(),
    )
    if (!made.ok) throw new Error(english(made.error))
    const { id } = madeAccount.parse(made.value)
    const edited = await services.router.dispatch(
      'accounts.update',
      { id, fields: { ...withKey, baseUrl: `${sb.url}/k/${apiKey}` } },
      appSender(),
    )
    expect(edited).toMatchObject({ ok: false, error: { code: 'account.keyInBaseUrl' } })
    const replaced = await services.router.dispatch(
      'accounts.replaceKey',
      { id, apiKey: sb.url.split('//')[1], storage: 'session' },
      appSender(),
    )
    expect(replaced).toMatchObject({ ok: false, error: { code: 'account.keyInBaseUrl' } })
    await services.router.dispatch('accounts.remove', { id }, appSender())

    // In a host label the address is read lower-cased, so a key with capitals is looked for regardless of case.
    const mixedKey = 'Sk0Live0Mixed0CaseKey42'
    const inHost = { ...profileFor(sb, 'Key in host'), baseUrl: `https://${mixedKey}.api.example.com/v1` }
    const hosted = await services.router.dispatch(
      'accounts.create',
      { fields: inHost, apiKey: mixedKey, storage: 'session' },
      appSender(),
    )
    expect(hosted).toMatchObject({ ok: false, error: { code: 'account.keyInBaseUrl' } })
  })
})

describe('a full run over every channel', () => {
  it('answers every channel, and nothing that reaches the renderer contains the API key', async () => {
    const apiKey = sb.keys.full
    // What the renderer sees: the bridge built from the contract, with IPC's structured clone in between.
    const received: unknown[] = []
    const progressSeen: Progress[] = []
    const api = buildApi({
      invoke: async (channel: ChannelName, payload: unknown) => {
        const r = await services.router.dispatch(channel, structuredClone(payload), appSender(progressSeen))
        const cloned = structuredClone(r)
        received.push(cloned)
        return cloned
      },
      onProgress: () => () => undefined,
      onJob: () => () => undefined,
      onQuitRequest: () => () => undefined,
      onReloadRequest: () => () => undefined,
      onReminderOpen: () => () => undefined,
    })
    // Untyped on purpose: the loops below call every channel by a name only known at run time.
    // Every answer must be a Result (what the renderer's bridge checks too).
    const call = async (channel: ChannelName, payload: unknown): Promise<Result<unknown>> => {
      const answer = await api.invoke(channel, payload)
      if (!isResult(answer)) throw new Error(`${channel} answered without a Result: ${JSON.stringify(answer)}`)
      return answer
    }
    // The same transport typed by the contract, as the renderer's bridge makes it: for the
    // channels named here, whose answers the test reads.
    const typed: Call = callOver(call)

    const fields = profileFor(sb, 'Second account')
    expect((await call('accounts.keychainStatus', {})).ok).toBe(true)
    const created = await typed('accounts.create', {
      fields,
      apiKey,
      storage: useRealKeychain ? 'keychain' : 'session',
    })
    if (!created.ok) throw new Error(english(created.error))
    const id = created.value.id
    expect(created.value).toMatchObject({ keyStorage: useRealKeychain ? 'keychain' : 'session', demo: false })
    expect(await call('accounts.testConnection', { id })).toMatchObject({ ok: true, value: { ok: true } })
    expect((await call('accounts.update', { id, fields: { ...fields, name: 'Renamed' } })).ok).toBe(true)
    expect((await call('accounts.setActive', { id })).ok).toBe(true)
    const listed = await call('accounts.list', {})
    expect(listed).toMatchObject({ ok: true, value: { activeId: id } })

    // Every API operation, through the second account (its key comes from the keychain).
    const client = createApiClient({ baseUrl: sb.url, apiKey, serverPaths: sb.serverPaths })
    const fixture: Fixture = await makeFixture(sb, client)
    // One shared sandbox here, so the deletions run last.
    // The domain list read in full, as the Domains screen does: a write naming a domain by its id
    // is then sent by the name the store knows it by (an id the store cannot name is refused).
    expect((await call('all.domains.list', { accountId: id, callId: 'read-domains' })).ok).toBe(true)
    const isDelete = (n: EndpointName) => sampleOf(n, fixture).method === 'DELETE'
    const ordered = [...ENDPOINT_NAMES.filter((n) => !isDelete(n)), ...ENDPOINT_NAMES.filter(isDelete)]
    for (const name of ordered) {
      const sample = sampleOf(name, fixture)
      if (isWriteEndpoint(name)) {
        // A write is a job: prepared, confirmed with its token when the table says so, then sent.
        const request = await asGuardedItem(name, sample.input, client)
        const prepared = await typed('jobs.prepare', { accountId: id, operation: name, items: [request] })
        if (!prepared.ok) throw new Error(`${name}: ${english(prepared.error)}`)
        const { job, token } = prepared.value
        const r = await typed('jobs.start', { jobId: job.id, ...(token ? { token } : {}) })
        if (!r.ok) throw new Error(`${name}: ${english(r.error)}`)
        const item = r.value.items[0]!
        expect(item.state, `${name}: ${item.error ? english(item.error) : ''}`).toBe('done')
        continue
      }
      const r = await call(name, { ...sample.input, accountId: id })
      expect(r.ok, `${name}: ${r.ok ? '' : english(r.error)}`).toBe(true)
    }
    for (const name of PAGED_ENDPOINT_NAMES) {
      const sample = sampleOf(name, fixture)
      const { limit: _l, page: _p, ...rest } = sample.input
      const r = await call(`all.${name}`, { ...rest, accountId: id, callId: `call-${name.replace(/\./g, '-')}` })
      expect(r.ok, `all.${name}: ${r.ok ? '' : english(r.error)}`).toBe(true)
    }
    expect(progressSeen.length).toBeGreaterThan(0)
    // Error paths too: a wrong key, a read-only key, an unknown item.
    expect((await call('accounts.replaceKey', { id, apiKey: sb.keys.readOnly, storage: 'session' })).ok).toBe(true)
    // webidB is a server of kind b, so kind a has no such server.
    expect(await call('servers.get', { accountId: id, kind: 'a', webid: fixture.webidB })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    })
    const renew = await typed('jobs.prepare', {
      accountId: id,
      operation: 'domains.expiration.renew',
      items: [{ params: { domain: fixture.sb.state.domains[0]!.domainname, years: 1 } }],
    })
    if (!renew.ok) throw new Error(english(renew.error))
    const { job: renewJob, token: renewToken } = renew.value
    expect(await call('jobs.start', { jobId: renewJob.id, token: renewToken })).toMatchObject({
      ok: true,
      value: { items: [{ state: 'failed', error: { kind: 'forbidden' } }] },
    })
    expect((await call('accounts.replaceKey', { id, apiKey: 'wrong-key', storage: 'session' })).ok).toBe(true)
    expect(await call('accounts.testConnection', { id })).toMatchObject({
      ok: true,
      value: { ok: false, kind: 'unauthorized' },
    })
    expect(await call('reads.cancel', { callId: 'nothing-running' })).toMatchObject({ ok: true })
    expect((await call('accounts.remove', { id })).ok).toBe(true)
    expect(await call('servers.list', { accountId: id, kind: 'a' })).toMatchObject({
      ok: false,
      error: { kind: 'no-account' },
    })

    const everything = JSON.stringify(received)
    expect(everything.length).toBeGreaterThan(10_000)
    expect(everything).not.toContain(apiKey)
    expect(everything).not.toContain(sb.keys.readOnly)
    expect(everything).not.toContain('wrong-key')
    // The demo account's generated key (demo_ + 48 hex digits) does not reach the renderer either.
    expect(everything).not.toMatch(/demo_[0-9a-f]{48}/)
  }, 120_000)

  it("the router's typed client gives a list read's progress to that call's own listener, and to the page as before", async () => {
    const many = await startSandbox({ domains: 450 })
    try {
      const pageProgress: Progress[] = []
      const call = services.router.client(appSender(pageProgress))
      const created = await call('accounts.create', {
        fields: profileFor(many, 'Many'),
        apiKey: many.keys.full,
        storage: 'session',
      })
      if (!created.ok) throw new Error(english(created.error))
      const own: Progress[] = []
      const other = call('all.domains.list', { accountId: created.value.id, callId: 'other-read' })
      const read = await call('all.domains.list', { accountId: created.value.id, callId: 'own-read' }, (p) =>
        own.push(p),
      )
      expect(read.ok && read.value.length).toBe(450)
      expect((await other).ok).toBe(true)
      expect(own.length).toBeGreaterThan(1)
      expect(own.map((p) => p.callId)).toEqual(own.map(() => 'own-read'))
      expect(own.at(-1)).toMatchObject({ loadedItems: 450 })
      expect(pageProgress.filter((p) => p.callId === 'own-read')).toEqual(own)
      expect(pageProgress.some((p) => p.callId === 'other-read')).toBe(true)
      await call('accounts.remove', { id: created.value.id })
    } finally {
      await many.close()
    }
  })

  it("the domain list's WHOIS privacy column is sent each domain's flag only, from the store and afresh, and the whole WHOIS list is kept (issue 40)", async () => {
    const many = await startSandbox({ domains: 250 })
    try {
      const pageProgress: Progress[] = []
      const call = services.router.client(appSender(pageProgress))
      const created = await call('accounts.create', {
        fields: profileFor(many, 'Whois'),
        apiKey: many.keys.full,
        storage: 'session',
      })
      if (!created.ok) throw new Error(english(created.error))
      const accountId = created.value.id
      // Never read: nothing stored.
      expect(await call('details.whoisPrivacy', { accountId, callId: 'whois-stored-1', from: 'store' })).toEqual({
        ok: true,
        value: null,
      })

      const own: Progress[] = []
      const read = await call('details.whoisPrivacy', { accountId, callId: 'whois-read', from: 'service' }, (p) =>
        own.push(p),
      )
      if (!read.ok || !read.value) throw new Error('the WHOIS privacy read failed')
      const expected = many.state.domains.map((d) => ({ domainname: d.domainname, whoisproxy: String(d.whoisproxy) }))
      const byName = (a: { domainname: string }, b: { domainname: string }) => a.domainname.localeCompare(b.domainname)
      // Exactly the two fields: no contact crosses.
      expect([...read.value.items].sort(byName)).toEqual(expected.sort(byName))
      expect(read.value).toMatchObject({ readAt: null, complete: true })
      expect(own.at(-1)).toMatchObject({ callId: 'whois-read', loadedItems: 250 })

      // Main kept the whole list (contacts too) under the name and parameters all.domains.whois.list keeps it by.
      const kept = await call('store.list', { accountId, name: 'domains.whois.list', params: {} })
      if (!kept.ok || !kept.value) throw new Error('the WHOIS list was not kept')
      expect(kept.value.items).toHaveLength(250)
      expect(kept.value.items.every((i) => 'contact' in i)).toBe(true)
      const stored = await call('details.whoisPrivacy', { accountId, callId: 'whois-stored-2', from: 'store' })
      if (!stored.ok || !stored.value) throw new Error('no stored WHOIS privacy')
      expect([...stored.value.items].sort(byName)).toEqual(expected)
      expect(stored.value.complete).toBe(true)
      expect(stored.value.readAt).toMatch(/^\d{4}-\d\d-\d\dT/)
      await call('accounts.remove', { id: accountId })
    } finally {
      await many.close()
    }
  })

  it('a stored list of 4,500 domains comes to the window in a first part of 500 and parts of 2,000, the whole of them the list (issue 54)', async () => {
    const many = await startSandbox({ domains: 4500 })
    try {
      const call = services.router.client(appSender([]))
      const created = await call('accounts.create', {
        fields: profileFor(many, 'Parts'),
        apiKey: many.keys.full,
        storage: 'session',
      })
      if (!created.ok) throw new Error(english(created.error))
      const accountId = created.value.id
      expect((await call('all.domains.list', { accountId, callId: 'parts-read' })).ok).toBe(true)
      const whole = await call('store.list', { accountId, name: 'domains.list', params: {} })
      if (!whole.ok || !whole.value) throw new Error('the domain list was not kept')
      expect(whole.value).toMatchObject({ part: 0, parts: 1 })
      expect(whole.value.items).toHaveLength(4500)

      // Each message holds one part; the window hands the first on at once and the whole at the end.
      const asked: number[] = []
      const ask = (part: number) => {
        asked.push(part)
        return call('store.list', { accountId, name: 'domains.list', params: {}, part })
      }
      const firsts: number[] = []
      const carried = await carryInParts(ask, { onFirst: (first) => firsts.push(first.items.length) })
      if (!carried.ok || !carried.value) throw new Error('the parts were not carried')
      expect(asked).toEqual([0, 1, 2])
      expect(firsts).toEqual([STORED_FIRST_PART_SIZE])
      expect(carried.value.items).toEqual(whole.value.items)
      expect(carried.value).toMatchObject({ readAt: whole.value.readAt, complete: true })
      const last = await call('store.list', { accountId, name: 'domains.list', params: {}, part: 2 })
      expect(last.ok && last.value?.items.length).toBe(4500 - STORED_FIRST_PART_SIZE - STORED_PART_SIZE)

      // The window asks for the next part only once the first is painted (afterFirst): its carriage holds no frame.
      asked.length = 0
      const askedWhilePainting: number[][] = []
      const afterPaint = await carryInParts(ask, {
        afterFirst: async () => {
          askedWhilePainting.push([...asked])
          await new Promise<void>((resolve) => setTimeout(resolve, 0))
          askedWhilePainting.push([...asked])
        },
      })
      expect(askedWhilePainting).toEqual([[0], [0]])
      expect(asked).toEqual([0, 1, 2])
      expect(afterPaint.ok && afterPaint.value?.items).toEqual(whole.value.items)

      // A carriage stopped after its first part (the account was left) asks for no other part.
      const stop = new AbortController()
      asked.length = 0
      const stopped = await carryInParts(ask, { signal: stop.signal, onFirst: () => stop.abort() })
      expect(stopped).toEqual({ ok: true, value: null })
      expect(asked).toEqual([0])

      // A part is a bounded whole number, checked at the boundary.
      const refused = await call('store.list', { accountId, name: 'domains.list', params: {}, part: -1 })
      expect(refused.ok).toBe(false)
      await call('accounts.remove', { id: accountId })
    } finally {
      await many.close()
    }
  })

  it('the stored WHOIS privacy flags of 4,500 domains come to the window in parts, as a stored list (issue 54)', async () => {
    const many = await startSandbox({ domains: 4500 })
    try {
      const call = services.router.client(appSender([]))
      const created = await call('accounts.create', {
        fields: profileFor(many, 'Whois parts'),
        apiKey: many.keys.full,
        storage: 'session',
      })
      if (!created.ok) throw new Error(english(created.error))
      const accountId = created.value.id
      const read = await call('details.whoisPrivacy', { accountId, callId: 'whois-parts-read', from: 'service' })
      if (!read.ok || !read.value) throw new Error('the WHOIS privacy read failed')
      const whole = await call('details.whoisPrivacy', { accountId, callId: 'whois-parts-whole', from: 'store' })
      if (!whole.ok || !whole.value) throw new Error('the WHOIS flags were not kept')
      expect(whole.value.items).toHaveLength(4500)

      // Each message holds one part of only the flags; the parts together are the whole, in its order.
      const parts: number[] = []
      const counted: typeof call = (channel, payload, onProgress) => {
        if (channel === 'details.whoisPrivacy' && 'part' in payload && payload.part !== undefined)
          parts.push(payload.part)
        return call(channel, payload, onProgress)
      }
      const carried = await storedWhoisPrivacy(accountId, counted, () => `whois-${parts.length}`)
      if (!carried.ok || !carried.value) throw new Error('the parts were not carried')
      expect(parts).toEqual([0, 1, 2])
      expect(carried.value.items).toEqual(whole.value.items)
      expect(carried.value.items.every((i) => Object.keys(i).join() === 'domainname,whoisproxy')).toBe(true)
      expect(carried.value).toMatchObject({ readAt: whole.value.readAt, complete: true })
      const last = await call('details.whoisPrivacy', { accountId, callId: 'whois-last', from: 'store', part: 2 })
      expect(last.ok && last.value?.items.length).toBe(4500 - STORED_FIRST_PART_SIZE - STORED_PART_SIZE)
      await call('accounts.remove', { id: accountId })
    } finally {
      await many.close()
    }
  })

  it('a detail list of 4,500 domains read afresh comes to the window in parts, the same as read whole (issue 54)', async () => {
    const many = await startSandbox({ domains: 4500 })
    try {
      const progress: Progress[] = []
      const call = services.router.client(appSender(progress))
      const created = await call('accounts.create', {
        fields: profileFor(many, 'Fresh parts'),
        apiKey: many.keys.full,
        storage: 'session',
      })
      if (!created.ok) throw new Error(english(created.error))
      const accountId = created.value.id
      const whole = await call('all.domains.nameserver.list', { accountId, callId: 'ns-whole' })
      if (!whole.ok) throw new Error(english(whole.error))
      expect(whole.value).toHaveLength(4500)

      // The first part's ask reads the list afresh (progress by its call id); the others slice what it kept.
      const asked: number[] = []
      const ask = async (part: number) => {
        const payload = { accountId, name: 'domains.nameserver.list' as const, params: {}, part }
        const r = await call('store.list', part === 0 ? { ...payload, from: 'service', callId: 'ns-parts' } : payload)
        asked.push(r.ok ? (r.value?.items.length ?? 0) : -1)
        return r
      }
      const wholeAgain = () => Promise.resolve({ ok: false as const, error: { kind: 'internal' as const, code: 'x' } })
      const carried = await readInParts(ask, wholeAgain)
      if (!carried.ok) throw new Error(english(carried.error))
      expect(asked).toEqual([
        STORED_FIRST_PART_SIZE,
        STORED_PART_SIZE,
        4500 - STORED_FIRST_PART_SIZE - STORED_PART_SIZE,
      ])
      expect(carried.value).toEqual(whole.value)
      expect(progress.some((p) => p.callId === 'ns-parts' && p.loadedItems === 4500)).toBe(true)

      // The WHOIS privacy flags read afresh: in parts too, the same flags as in one answer.
      const flags = await call('details.whoisPrivacy', { accountId, callId: 'whois-fresh-whole', from: 'service' })
      if (!flags.ok || !flags.value) throw new Error('the WHOIS privacy read failed')
      const whoisParts: number[] = []
      const askFlags = async (part: number) => {
        const r = await call('details.whoisPrivacy', {
          accountId,
          callId: `whois-fresh-${part}`,
          from: part === 0 ? 'service' : 'store',
          part,
        })
        whoisParts.push(r.ok ? (r.value?.items.length ?? 0) : -1)
        if (!r.ok || !r.value || !('parts' in r.value)) return { ok: true as const, value: null }
        return { ok: true as const, value: r.value }
      }
      const carriedFlags = await readInParts(askFlags, wholeAgain)
      if (!carriedFlags.ok) throw new Error(english(carriedFlags.error))
      expect(whoisParts).toEqual([
        STORED_FIRST_PART_SIZE,
        STORED_PART_SIZE,
        4500 - STORED_FIRST_PART_SIZE - STORED_PART_SIZE,
      ])
      expect(carriedFlags.value).toEqual(flags.value.items)
      await call('accounts.remove', { id: accountId })
    } finally {
      await many.close()
    }
  })

  it('a listAll read reports progress and can be cancelled from the renderer side', async () => {
    const big = await startSandbox({ domains: 3000 })
    try {
      const fields = profileFor(big, 'Big')
      const created = await services.router.dispatch(
        'accounts.create',
        { fields, apiKey: big.keys.full, storage: 'session' },
        appSender(),
      )
      if (!created.ok) throw new Error(english(created.error))
      const { id } = madeAccount.parse(created.value)
      // Every page waits for the test: three are let go, the cancel is sent while the others are
      // held, and only then may they answer. With pages of 15 ms each, a test whose cancel came
      // late on a loaded machine saw the whole list read (300 ms late: it always did).
      big.faults.inject('domains.list', { hold: true })
      const progress: Progress[] = []
      const job = services.router.dispatch(
        'all.domains.list',
        { accountId: id, callId: 'big-read' },
        appSender(progress),
      )
      for (let answered = 0; answered < 3; answered++) {
        await vi.waitFor(() => expect(big.faults.held('domains.list')).toBeGreaterThan(0), { timeout: 10_000 })
        big.faults.release(1)
        await vi.waitFor(() => expect(progress).toHaveLength(answered + 1), { timeout: 10_000 })
      }
      expect(services.router.activeJobs).toBe(1)
      await services.router.dispatch('reads.cancel', { callId: 'big-read' }, appSender())
      expect(await job).toMatchObject({ ok: false, error: { kind: 'cancelled' } })
      expect(services.router.activeJobs).toBe(0)
      expect(progress.at(-1)!.loadedItems).toBeLessThan(3000)
      await services.router.dispatch('accounts.remove', { id }, appSender())
    } finally {
      big.faults.clear()
      await big.close()
    }
  })
})
