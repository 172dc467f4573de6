/**
 * Secrets at rest (issue 25, point 3): no file the app writes holds a transfer code, a dynamic DNS
 * password or an API key, whichever way it came (typed by the user, answered by the service, or
 * in an answer settled from the service's log); the journal holds no WHOIS contact; the journal
 * and the store are readable by the user only; a removed account's jobs leave the journal; and a
 * job stops when its account is made read-only while it runs.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { JobView } from '../../src/shared/jobs'
import type { WriteEndpointName } from '../../src/shared/endpoints/names'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'
import { z } from 'zod'
import { sentBody } from '../helpers/sent-body'

const AUTHCODE = 'PLANTED-AUTHCODE-7f3a'
const DDNS_PASSWORD = 'planted-ddns-password-91c2'
const CONTACT_NAME = 'Plantedcontactname'

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
  services = await createAppServices({ userDataDir: dir, allowedOrigins: [APP], keychain: async () => keys, logCheckDelaysMs: [60_000] })
  accountId = (await ok('accounts.create', { fields: profileFor(sb, 'Main', 1500), apiKey: sb.keys.full, storage: 'keychain' })).id
})
afterAll(async () => {
  await services.close()
  await sb.close()
})

describe('what the app writes to disk', () => {
  it('holds no transfer code, dynamic DNS password or key, and the journal no contact; the journal and the store are the user’s alone', async () => {
    const [a, b, c] = sb.state.domains
    const contact = Object.fromEntries(['registrant', 'admin', 'tech', 'billing'].map((role) => [role, { firstname: CONTACT_NAME, lastname: 'Person', country: 'JP', phone: '+81.312345678', email: 'x@example.com' }]))
    // Typed by the user: a transfer code, a password, contacts.
    await write('domains.transfer.request', { domain: 'incoming-planted.org', authcode: AUTHCODE, contact })
    await write('domains.dynamicdns.set', { domain: a!.domainname, dynamicdns: 1, password: DDNS_PASSWORD })
    await write('domains.whois.set', { domain: b!.domainname, whois_proxy: 0, contact })
    // Answered by the service: every domain's transfer code in the transfer-lock list, read in full.
    await ok('all.domains.transferlock.list', { accountId, callId: 'r-lock' })
    // Settled from the service's log: its logged answer carries the domain's transfer code.
    sb.faults.inject('domains.transferlock.set', { lostAnswer: 'reset', times: 1 })
    const lost = await write('domains.transferlock.set', { domain: c!.domainname, transfer_lock: c!.transfer_lock ? 0 : 1 })
    expect(lost.items[0]!.state).toBe('unknown')
    expect(await ok('jobs.checkLog', { jobId: lost.id, index: 0 })).toBe('received')
    await services.close()

    const secrets = [AUTHCODE, DDNS_PASSWORD, sb.keys.full, ...sb.state.domains.map((d) => d.authcode)]
    const files = filesUnder(dir)
    expect(files.map((f) => f.path)).toContain(join(dir, 'journal.jsonl'))
    for (const f of files) for (const s of secrets) expect(f.text.includes(s), `${f.path} holds ${s}`).toBe(false)
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).not.toContain(CONTACT_NAME)
    for (const name of ['journal.jsonl', 'portfolio.db']) expect(statSync(join(dir, name)).mode & 0o777, name).toBe(0o600)
    services = await createAppServices({ userDataDir: dir, allowedOrigins: [APP], keychain: async () => keys, logCheckDelaysMs: [60_000] })
  })

  it('a removed account’s jobs leave the list and the journal', async () => {
    const other = await startSandbox({ domains: 3 })
    try {
      const id = (await ok('accounts.create', { fields: profileFor(other, 'Gone', 1500), apiKey: other.keys.full, storage: 'keychain' })).id
      const { job } = await ok('jobs.prepare', { accountId: id, operation: 'domains.transferlock.set', items: [{ params: { domain: other.state.domains[0]!.domainname, transfer_lock: 0 } }] })
      await ok('jobs.start', { jobId: job.id })
      expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toContain(job.id)
      await ok('accounts.remove', { id })
      await expect.poll(async () => (await ok('jobs.list', {})).some((j) => j.id === job.id)).toBe(false)
      await expect.poll(() => readFileSync(join(dir, 'journal.jsonl'), 'utf8').includes(job.id)).toBe(false)
    } finally {
      await other.close()
    }
  })

  it('a job stops before its next send when its account is made read-only while it runs', async () => {
    sb.faults.inject('domains.transferlock.set', { latencyMs: 200 })
    const names = sb.state.domains.slice(4, 9).map((d) => d.domainname)
    const { job } = await ok('jobs.prepare', { accountId, operation: 'domains.transferlock.set', items: names.map((domain) => ({ params: { domain, transfer_lock: 1 } })), concurrency: 1 })
    const running = ok('jobs.start', { jobId: job.id })
    // Once the first is on its way, the account is made read-only.
    await expect.poll(() => sb.received.filter((r) => r.endpoint === 'domains.transferlock.set' && sentBody(r, z.object({ transfer_lock: z.number().optional() })).transfer_lock === 1).length).toBeGreaterThan(0)
    const fields = { ...profileFor(sb, 'Main', 1500), readOnly: true }
    await ok('accounts.update', { id: accountId, fields })
    const ended = await running
    const states = ended.items.map((it) => it.state)
    expect(states.filter((s) => s === 'done').length).toBeLessThan(names.length)
    expect(ended.items.filter((it) => it.state === 'skipped').every((it) => it.error?.code === 'account.readOnly')).toBe(true)
    sb.faults.clear()
    await ok('accounts.update', { id: accountId, fields: { ...fields, readOnly: false }, typedName: 'Main' })
  })
})
