/**
 * Secrets at rest (issue 25, point 3): no file the app writes holds a transfer code, a dynamic DNS
 * password or an API key, whichever way it came (typed by the user, answered by the service, or
 * in an answer settled from the service's log); the journal holds no WHOIS contact; the journal
 * and the store are readable by the user only; a removed account's jobs leave the journal; and a
 * job stops when its account is made read-only while it runs.
 *
 * Issue 41, point 1: nor does any file hold the WHOIS contacts the service answers (in a result,
 * in a logged answer of a lost write, in the journal's damaged copy), or a secret a service error
 * repeats (a hostile service of the test's own in front of the sandbox, over loopback); and the
 * body of a write is kept as an HMAC under the installation's key from the keychain, never as a
 * plain digest that would confirm a guessed password.
 */
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { bodyDigest } from '../../src/main/jobs/ledger/at-rest'
import { BODY_KEY_ENTRY } from '../../src/main/jobs/ledger/body-mac'
import { createApiClient } from '../../src/main/http'
import { parseEndpointParams } from '@shared/endpoints/table'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { JobView } from '@shared/jobs'
import type { WriteEndpointName } from '@shared/endpoints/names'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'
import { listeningPort } from '../../support/listening-port'

const AUTHCODE = 'PLANTED-AUTHCODE-7f3a'
const DDNS_PASSWORD = 'planted-ddns-password-91c2'
const CONTACT_NAME = 'Plantedcontactname'
/** A contact the service holds (not one this app sent): its answers and its log repeat it. */
const SERVICE_CONTACT = 'Servicekeptperson'
const SERVICE_ADDRESS = '4-2-8 Plantedaddress-cho'

/**
 * A hostile service in front of the sandbox: it passes every request on, except a write that
 * carries a transfer code or a password, which it refuses with a message that repeats them (and
 * the key, as hex).
 */
/** A log answer whose transfer-lock entries say the request was refused, repeating the key. */
function withKeyInLoggedRefusals(text: string, key: string): string {
  const body: unknown = JSON.parse(text)
  if (typeof body !== 'object' || body === null || !('results' in body) || !Array.isArray(body.results)) return text
  const refused = JSON.stringify({
    errors: { code: 401, message: `token ${key} (${Buffer.from(key).toString('hex')}) is not allowed here` },
    request_id: 'logged-refusal',
  })
  const results: unknown[] = body.results.map((e: unknown) =>
    typeof e === 'object' && e !== null && 'path' in e && String(e.path).includes('transferlock')
      ? { ...e, response: refused }
      : e,
  )
  return JSON.stringify({ ...body, results })
}

async function echoingService(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const auth = String(req.headers.authorization ?? '').replace(/^Bearer /, '')
      const secret = /"(?:authcode|password)":"([^"]+)"/.exec(body)?.[1]
      if (req.method !== 'GET' && secret) {
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            errors: {
              code: 400,
              message: `authcode ${secret} is not valid (token ${Buffer.from(auth).toString('hex')})`,
            },
            request_id: 'echo-1',
          }),
        )
        return
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v
      void fetch(`${target}${(req.url ?? '/').replace(/^\/v1/, '')}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
      })
        .then(async (r) => {
          let text = await r.text()
          // Its log says a lost transfer-lock change was refused, in words that repeat the key (as sent, and as hex).
          if (req.method === 'GET' && (req.url ?? '').startsWith('/v1/logs')) text = withKeyInLoggedRefusals(text, auth)
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' })
          res.end(text)
        })
        .catch(() => res.destroy())
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = listeningPort(server)
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => {
      server.closeAllConnections()
      return new Promise((r) => server.close(() => r()))
    },
  }
}

let sb: Sandbox
let dir: string
let services: AppServices
let accountId: string
const keys = new SessionSecretStore()
const { ok } = routerCalls(() => services)
const write = async (operation: WriteEndpointName, params: Record<string, unknown>): Promise<JobView> => {
  const { job, token } = await ok('jobs.prepare', { accountId, operation, items: [{ params }] })
  return ok('jobs.start', { jobId: job.id, ...(token ? { token } : {}) })
}

/** Every file under a folder, with its text. */
function filesUnder(root: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = []
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const path = join(root, name)
    if (statSync(path).isFile()) out.push({ path, text: readFileSync(path).toString('latin1') })
  }
  return out
}

beforeAll(async () => {
  sb = await startSandbox({ domains: 10 })
  dir = mkdtempSync(join(tmpdir(), 'at-rest-'))
  services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => keys,
    logCheckDelaysMs: [60_000],
  })
  accountId = (
    await ok('accounts.create', { fields: profileFor(sb, 'Main'), apiKey: sb.keys.full, storage: 'keychain' })
  ).id
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

describe('what the app writes to disk', () => {
  it('holds no transfer code, dynamic DNS password or key, and the journal no contact; the journal and the store are the user’s alone', async () => {
    const [a, b, c, d, e] = sb.state.domains
    const contact = Object.fromEntries(
      ['registrant', 'admin', 'tech', 'billing'].map((role) => [
        role,
        { firstname: CONTACT_NAME, lastname: 'Person', country: 'JP', phone: '+81.312345678', email: 'x@example.com' },
      ]),
    )
    // Contacts the service holds: every WHOIS answer and logged answer of these domains repeats them.
    for (const x of [d!, e!])
      for (const person of Object.values(x.contact))
        Object.assign(person, { firstname: SERVICE_CONTACT, address1: SERVICE_ADDRESS })
    // Typed by the user: a transfer code, a password, contacts.
    await write('domains.transfer.request', { domain: 'incoming-planted.org', authcode: AUTHCODE, contact })
    const ddns = await write('domains.dynamicdns.set', {
      domain: a!.domainname,
      dynamicdns: 1,
      password: DDNS_PASSWORD,
    })
    await write('domains.whois.set', { domain: b!.domainname, whois_proxy: 0, contact })
    // Answered by the service: every domain's transfer code in the transfer-lock list, read in full.
    await ok('all.domains.transferlock.list', { accountId, callId: 'r-lock' })
    // Settled from the service's log: its logged answer carries the domain's transfer code.
    sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
    const lost = await write('domains.transferlock.set', {
      domain: c!.domainname,
      transfer_lock: c!.transfer_lock ? 0 : 1,
    })
    expect(lost.items[0]!.state).toBe('unknown')
    expect(await ok('jobs.checkLog', { jobId: lost.id, index: 0 })).toBe('received')
    // Answered by the service: the contacts it holds, in a WHOIS change's answer, and in the logged answer of one whose answer was lost.
    const proxyOnly = await write('domains.whois.set', { domain: d!.domainname, whois_proxy: 1 })
    expect(proxyOnly.items[0]!.state).toBe('done')
    sb.faults.inject('domains.whois.set', { lostAnswer: 'reset', times: 1 })
    const lostWhois = await write('domains.whois.set', { domain: e!.domainname, whois_proxy: 1 })
    expect(lostWhois.items[0]!.state).toBe('unknown')
    expect(await ok('jobs.checkLog', { jobId: lostWhois.id, index: 0 })).toBe('received')
    // Repeated by the service: a hostile one refuses a transfer code and a password in words that repeat them.
    const echo = await echoingService(sb.url)
    try {
      const echoId = (
        await ok('accounts.create', {
          fields: { ...profileFor(sb, 'Echo', 1500), baseUrl: echo.url },
          apiKey: sb.keys.full,
          storage: 'keychain',
        })
      ).id
      for (const params of [
        { domain: 'echoed-planted.org', authcode: AUTHCODE },
        { domain: a!.domainname, dynamicdns: 1, password: DDNS_PASSWORD },
      ]) {
        const operation = 'authcode' in params ? 'domains.transfer.request' : 'domains.dynamicdns.set'
        const { job, token } = await ok('jobs.prepare', { accountId: echoId, operation, items: [{ params }] })
        const ended = await ok('jobs.start', { jobId: job.id, ...(token ? { token } : {}) })
        expect(ended.items[0]!.error?.serviceMessage).toMatch(/is not valid/)
      }
      // A lost write whose logged answer repeats the key.
      const f = sb.state.domains[5]!
      sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
      const { job } = await ok('jobs.prepare', {
        accountId: echoId,
        operation: 'domains.transferlock.set',
        items: [{ params: { domain: f.domainname, transfer_lock: f.transfer_lock ? 0 : 1 } }],
      })
      const lostEcho = await ok('jobs.start', { jobId: job.id })
      expect(lostEcho.items[0]!.state).toBe('unknown')
      expect(await ok('jobs.checkLog', { jobId: lostEcho.id, index: 0 })).toBe('received')
      const settled = (await ok('jobs.list', {})).find((j) => j.id === lostEcho.id)!.items[0]!
      expect(settled.error?.serviceMessage).toMatch(/token \[redacted\] \(\[redacted\]\) is not allowed/)
    } finally {
      await echo.close()
    }
    await services.close()

    const secrets = [
      AUTHCODE,
      DDNS_PASSWORD,
      sb.keys.full,
      Buffer.from(sb.keys.full).toString('hex'),
      ...sb.state.domains.map((x) => x.authcode),
    ]
    const personal = [CONTACT_NAME, SERVICE_CONTACT, SERVICE_ADDRESS]
    // The body of the password's write, as a plain digest would confirm a guess of it.
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
    const ddnsParams = parseEndpointParams('domains.dynamicdns.set', {
      domain: a!.domainname,
      dynamicdns: 1,
      password: DDNS_PASSWORD,
    })
    if (!ddnsParams.ok) throw new Error('bad test parameters')
    const guessConfirmed = bodyDigest(client.describeRequest('domains.dynamicdns.set', ddnsParams.value).body)
    const checkFiles = () => {
      const files = filesUnder(dir)
      expect(files.map((f) => f.path)).toContain(join(dir, 'journal.jsonl'))
      for (const f of files)
        for (const x of [...secrets, guessConfirmed]) expect(f.text.includes(x), `${f.path} holds ${x}`).toBe(false)
      for (const f of files.filter((x) => x.path.includes('journal')))
        for (const x of personal) expect(f.text.includes(x), `${f.path} holds ${x}`).toBe(false)
      return files
    }
    checkFiles()
    // The body is known by its HMAC under the installation's key, kept in the keychain.
    const journaled = readFileSync(join(dir, 'journal.jsonl'), 'utf8')
    expect(journaled).toMatch(new RegExp(`"job":"${ddns.id}".*"bodyHash":"hmac-sha256:[0-9a-f]{64}"`))
    expect(await keys.get(BODY_KEY_ENTRY)).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    for (const name of ['journal.jsonl', 'portfolio.db'])
      expect(statSync(join(dir, name)).mode & 0o777, name).toBe(0o600)
    // A damaged journal is copied aside as it was: the copy holds nothing either.
    appendFileSync(join(dir, 'journal.jsonl'), '{"torn line\n')
    services = await createAppServices({
      userDataDir: dir,
      allowedOrigins: [APP],
      keychain: async () => keys,
      logCheckDelaysMs: [60_000],
    })
    const files = checkFiles()
    expect(files.some((f) => f.path.includes('journal.jsonl.damaged-'))).toBe(true)
  })

  it('a removed account’s jobs leave the list and the journal', async () => {
    const other = await startSandbox({ domains: 3 })
    try {
      const id = (
        await ok('accounts.create', {
          fields: profileFor(other, 'Gone', 1500),
          apiKey: other.keys.full,
          storage: 'keychain',
        })
      ).id
      const { job } = await ok('jobs.prepare', {
        accountId: id,
        operation: 'domains.transferlock.set',
        items: [{ params: { domain: other.state.domains[0]!.domainname, transfer_lock: 0 } }],
      })
      await ok('jobs.start', { jobId: job.id })
      expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toContain(job.id)
      await ok('accounts.remove', { id })
      // The journal is written again after the removal: expect.poll's 1 s default is short on a loaded machine.
      await expect
        .poll(async () => (await ok('jobs.list', {})).some((j) => j.id === job.id), { timeout: 10_000 })
        .toBe(false)
      await expect
        .poll(() => readFileSync(join(dir, 'journal.jsonl'), 'utf8').includes(job.id), { timeout: 10_000 })
        .toBe(false)
    } finally {
      await other.close()
    }
  })

  it('a job stops before its next send when its account is made read-only while it runs', async () => {
    // The first held at the sandbox until the account is read-only: with 200 ms a send, the update (slow on a loaded
    // machine) came after the last of the five had gone.
    sb.faults.inject('domains.transferlock.set', { hold: true, times: 1 })
    const names = sb.state.domains.slice(4, 9).map((d) => d.domainname)
    const { job } = await ok('jobs.prepare', {
      accountId,
      operation: 'domains.transferlock.set',
      items: names.map((domain) => ({ params: { domain, transfer_lock: 1 } })),
      concurrency: 1,
    })
    const running = ok('jobs.start', { jobId: job.id })
    // Once the first is on its way, the account is made read-only.
    await expect
      .poll(
        () =>
          sb.received.filter(
            (r) =>
              r.endpoint === 'domains.transferlock.set' &&
              sentBody(r, z.object({ transfer_lock: z.number().optional() })).transfer_lock === 1,
          ).length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0)
    await expect.poll(() => sb.faults.held('domains.transferlock.set'), { timeout: 10_000 }).toBe(1)
    // The service's usual time-out (the account's): the held write must outlast the update, however slow the machine.
    const fields = { ...profileFor(sb, 'Main'), readOnly: true }
    await ok('accounts.update', { id: accountId, fields })
    sb.faults.release()
    const ended = await running
    const states = ended.items.map((it) => it.state)
    expect(states.filter((s) => s === 'done').length).toBeLessThan(names.length)
    // The held one went on; every one after it was stopped before its send.
    expect(states).toEqual(['done', 'skipped', 'skipped', 'skipped', 'skipped'])
    expect(
      ended.items.filter((it) => it.state === 'skipped').every((it) => it.error?.code === 'account.readOnly'),
    ).toBe(true)
    sb.faults.clear()
    await ok('accounts.update', { id: accountId, fields: { ...fields, readOnly: false }, typedName: 'Main' })
  })
})
