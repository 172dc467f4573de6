/**
 * A journal that shows tampering (issue 49 point 4): the app's real services, the real journal
 * file and the sandbox. Each case writes renewals, changes the file as someone outside the app
 * would (one line edited, two swapped, the last job's lines removed, cut at a line boundary, cut
 * mid-line, replaced with an older copy), and starts again: the change is said once (a startup
 * warning with the line, in English and Japanese), the file as it was is kept aside, every item it
 * no longer vouches for is unknown (never failed or not sent), and nothing is sent again.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { en } from '@shared/i18n/locales/en'
import { ja } from '@shared/i18n/locales/ja'
import { translateCode } from '@shared/i18n/translate'
import type { JobView } from '@shared/jobs'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

let sb: Sandbox
let dir: string
let services: AppServices
let accountId: string
// One keychain for every start of a case, as the OS keychain is: the journal's key lives in it.
let keychain: SessionSecretStore

const boot = () =>
  createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: () => Promise.resolve(keychain),
    logCheckDelaysMs: [60_000],
  })
const { ok } = routerCalls(() => services)
const journalFile = () => join(dir, 'journal.jsonl')
const renewals = () => sb.received.filter((r) => r.endpoint === 'domains.expiration.renew').length

/** Renews these domains in one job, the first `lost` of them with their answer lost after the service acted (unknown). */
async function renew(names: string[], lost = 0): Promise<JobView> {
  if (lost > 0) sb.faults.inject('domains.expiration.renew', { lostAnswer: 'reset', times: lost })
  const { job, token } = await ok('jobs.prepare', {
    accountId,
    operation: 'domains.expiration.renew',
    items: names.map((domain) => ({ params: { domain, years: 1 } })),
    concurrency: 1,
  })
  return ok('jobs.start', { jobId: job.id, token })
}

const lines = () =>
  readFileSync(journalFile(), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
const writeLines = (ls: string[]) => writeFileSync(journalFile(), `${ls.join('\n')}\n`)

async function restart(): Promise<{
  jobs: JobView[]
  warnings: Array<{ code: string; params?: Record<string, string | number> | undefined }>
}> {
  await services.close()
  services = await boot()
  const startup = await ok('app.startup', {})
  return { jobs: await ok('jobs.list', {}), warnings: startup.warnings ?? [] }
}

beforeAll(async () => {
  sb = await startSandbox({ domains: 12 })
})
afterAll(async () => {
  await sb.close()
})
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'journal-tamper-'))
  keychain = new SessionSecretStore()
  services = await boot()
  accountId = (
    await ok('accounts.create', { fields: profileFor(sb, 'Main', 1500), apiKey: sb.keys.full, storage: 'session' })
  ).id
})
afterEach(async () => {
  sb.faults.clear()
  await services.close()
  rmSync(dir, { recursive: true, force: true })
})

const names = (from: number, count: number) => sb.state.domains.slice(from, from + count).map((d) => d.domainname)

/** The one startup warning that says the journal changed, in both languages. */
function saidOnce(warnings: Awaited<ReturnType<typeof restart>>['warnings']): { line: number } {
  const said = warnings.filter((w) => w.code === 'startup.journalChanged')
  expect(said).toHaveLength(1)
  const w = said[0]!
  const line = Number(w.params?.line)
  const movedTo = String(w.params?.movedTo)
  expect(existsSync(movedTo)).toBe(true)
  expect(translateCode(en, 'en', w.code, w.params)).toContain(`line ${line}`)
  expect(translateCode(ja, 'ja', w.code, w.params)).toContain(`${line} 行目`)
  return { line }
}

describe('a journal as written: no warning, items as they ended', () => {
  it('restarts quietly, twice, and keeps every state', async () => {
    const job = await renew(names(0, 2), 1)
    expect(job.items.map((it) => it.state)).toEqual(['unknown', 'done'])
    for (let n = 0; n < 2; n++) {
      const again = await restart()
      expect(
        again.warnings.filter((w) => w.code === 'startup.journalChanged' || w.code === 'startup.journalDamaged'),
      ).toEqual([])
      expect(again.jobs.find((j) => j.id === job.id)?.items.map((it) => it.state)).toEqual(['unknown', 'done'])
    }
  })
})

describe('a journal changed outside the app', () => {
  it('one line edited ("unknown" made "failed", still valid JSON): said at its line, the item unknown, nothing sent', async () => {
    const job = await renew(names(2, 2), 1)
    const before = renewals()
    const ls = lines()
    const n = ls.findIndex((l) => l.includes(`"job":"${job.id}"`) && l.includes('"state":"unknown"'))
    expect(n).toBeGreaterThan(0)
    ls[n] = ls[n]!.replace('"state":"unknown"', '"state":"failed"')
    writeLines(ls)
    const again = await restart()
    expect(saidOnce(again.warnings).line).toBe(n + 1)
    expect(again.jobs.find((j) => j.id === job.id)?.items[0]?.state).toBe('unknown')
    expect(renewals()).toBe(before)
    // Said once: the next start finds the journal the app rewrote, whole.
    expect((await restart()).warnings.filter((w) => w.code === 'startup.journalChanged')).toEqual([])
  })

  it('two lines swapped (a job line moved after its items): said, its items unknown, never "not sent"', async () => {
    const job = await renew(names(4, 2))
    const ls = lines()
    const jobLine = ls.findIndex((l) => l.includes('"t":"job"') && l.includes(`"id":"${job.id}"`))
    const itemLine = ls.findIndex(
      (l, i) => i > jobLine && l.includes(`"job":"${job.id}"`) && l.includes('"state":"sending"'),
    )
    expect(jobLine).toBeGreaterThan(0)
    ;[ls[jobLine], ls[itemLine]] = [ls[itemLine]!, ls[jobLine]!]
    writeLines(ls)
    const again = await restart()
    expect(saidOnce(again.warnings).line).toBe(jobLine + 1)
    const states = again.jobs.find((j) => j.id === job.id)?.items.map((it) => it.state)
    expect(states?.every((s) => s === 'unknown' || s === 'done')).toBe(true)
    expect(states).not.toContain('skipped')
  })

  it("the last job's lines removed: said past the end, the job's items unknown", async () => {
    await renew(names(6, 1))
    const kept = lines()
    const job = await renew(names(7, 2))
    const before = renewals()
    writeLines(kept.concat(lines().slice(kept.length, kept.length + 1)))
    const again = await restart()
    saidOnce(again.warnings)
    expect(again.jobs.find((j) => j.id === job.id)?.items.map((it) => it.state)).toEqual(['unknown', 'unknown'])
    expect(renewals()).toBe(before)
  })

  it('cut at a line boundary (its last line gone): said, the item that line ended is unknown, not done or "not sent"', async () => {
    const job = await renew(names(9, 1))
    const ls = lines()
    writeLines(ls.slice(0, -2))
    const again = await restart()
    expect(saidOnce(again.warnings).line).toBe(ls.length - 1)
    expect(again.jobs.find((j) => j.id === job.id)?.items[0]?.state).toBe('unknown')
  })

  it('cut in the middle of a line the app had finished writing: said, the item unknown', async () => {
    const job = await renew(names(10, 1))
    // Cut in the middle of the line that says the renewal was done.
    const ls = lines()
    const n = ls.findIndex((l) => l.includes(`"job":"${job.id}"`) && l.includes('"state":"done"'))
    expect(n).toBeGreaterThan(0)
    writeFileSync(journalFile(), `${ls.slice(0, n).join('\n')}\n${ls[n]!.slice(0, 30)}`)
    const count = n + 1
    const again = await restart()
    // The torn line is the last one: from there on nothing is vouched for.
    expect(saidOnce(again.warnings).line).toBe(count)
    expect(again.jobs.find((j) => j.id === job.id)?.items[0]?.state).toBe('unknown')
  })

  it('replaced with an older copy of itself: said; what the copy holds stands, what came after is not shown as not sent', async () => {
    const first = await renew(names(0, 1))
    const copy = `${journalFile()}.copy`
    copyFileSync(journalFile(), copy)
    const second = await renew(names(1, 1), 1)
    const before = renewals()
    copyFileSync(copy, journalFile())
    const again = await restart()
    saidOnce(again.warnings)
    expect(again.jobs.find((j) => j.id === first.id)?.items[0]?.state).toBe('done')
    // The older copy never knew the second job: it is not shown as anything it was not.
    expect(again.jobs.find((j) => j.id === second.id)?.items[0]?.state ?? 'absent').not.toBe('skipped')
    expect(renewals()).toBe(before)
  })
})
