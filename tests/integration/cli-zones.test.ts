/**
 * `dns plan|check|apply <folder>` (src/cli/zones.ts): the built command as a real process, against
 * the sandbox over loopback, on a folder of 20 zone files of two accounts (a subfolder per
 * account: one in the service's records form, one as BIND files). One plan, one confirmation,
 * each zone's result; a CI's check exits 4 naming the zones that differ; a stop (SIGINT) while
 * saves are held at the service starts no further zone and says what was and was not done.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { z } from 'zod'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { createApiClient, type ApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { nsFlavour } from '../../src/sandbox/nameservers'
import { zoneAsBind } from '../../src/cli/zone-file'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { profileFor } from '../../support/profile'
import { APP, routerCalls } from '../helpers/router-calls'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const WORKER = new URL('../../out/main/store-worker.js', import.meta.url)
/** Longer than any hold of the stop test lasts on a busy machine: a held save must not time out into "unknown". */
const ANSWER_WAIT_MS = 120_000
const MEMBER_KEY = `sbx_member_${'7'.repeat(32)}`

let sb: Sandbox
let outside: ApiClient
let dataDir: string
let services: AppServices | undefined
const { ok } = routerCalls(() => services)

const twelve = [
  'a @ 192.0.2.1',
  'a www 192.0.2.1',
  'mx mail.example.net. 10',
  'txt @ v=spf1 ip4:192.0.2.1 -all',
  ...Array.from({ length: 8 }, (_, i) => `a h${i} 198.51.100.${i + 1}`),
]
/** Ten zones each: Main's in the records form, Live shop's (a production account) as BIND. */
let mainZones: string[]
let shopZones: string[]
let folder: string

const cli = (args: string[], opts: Omit<Parameters<typeof runCli>[1], 'dataDir'> = {}) =>
  runCli(args, { dataDir, timeoutMs: 120_000, ...opts })
const puts = () => sb.received.filter((r) => r.endpoint === 'domains.dns.set' && r.method === 'PUT').length
const liveRecords = async (domain: string) => (await outside.call('domains.dns.get', { domain })).records

const fileOf = (domain: string) =>
  mainZones.includes(domain) ? join(folder, 'Main', `${domain}.zone`) : join(folder, 'Live shop', `${domain}.bind`)

/** A TXT line added to a zone's file, in the file's own format (the records form unquoted, as the service holds it). */
function addToFile(domain: string, host: string, text: string) {
  const file = fileOf(domain)
  const line = mainZones.includes(domain) ? `txt ${host} ${text}` : `${host} IN TXT "${text}"`
  writeFileSync(file, `${readFileSync(file, 'utf8').replace(/\n*$/, '\n')}${line}\n`)
}

const ZoneJson = z.object({
  domain: z.string(),
  account: z.string(),
  plan: z.array(z.string()).optional(),
  health: z.array(z.unknown()).optional(),
  same: z.boolean().optional(),
  result: z.string().optional(),
})
const Counts = z.object({
  zones: z.number(),
  changing: z.number(),
  same: z.number(),
  refused: z.number(),
  failed: z.number(),
})
const RunJson = z.object({
  counts: Counts.optional(),
  zones: z.array(ZoneJson),
  differ: z.array(z.string()).optional(),
  saved: z.array(z.string()).optional(),
  notStarted: z.array(z.string()).optional(),
})

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'hosting-admin dns over a folder of zones (skipped: no D-Bus session; run through npm test)',
  () => {
    beforeAll(async () => {
      sb = await startSandbox({ domains: 40, keys: { members: [MEMBER_KEY] } })
      outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const editable = sb.state.domains.filter((d) => nsFlavour(d) !== 'registrar').map((d) => d.domainname)
      expect(editable.length).toBeGreaterThanOrEqual(20)
      // In the order the folder's files are read (by name): the order each account's zones are sent in.
      const byFileName = (ending: string) => (a: string, b: string) => `${a}${ending}`.localeCompare(`${b}${ending}`)
      mainZones = editable.slice(0, 10).sort(byFileName('.zone'))
      shopZones = editable.slice(10, 20).sort(byFileName('.bind'))
      folder = mkdtempSync(join(tmpdir(), 'cli-zones-'))
      mkdirSync(join(folder, 'Main'))
      mkdirSync(join(folder, 'Live shop'))
      // Beside the zones, a note: left out, and said to be.
      writeFileSync(join(folder, 'README.md'), '# our zones\n')
      for (const d of [...mainZones, ...shopZones]) {
        const { ns_type } = await outside.call('domains.dns.get', { domain: d })
        await outside.call('domains.dns.set', { domain: d, ns_type, records: twelve.join('\n'), ttl: 3600 })
      }
      for (const d of mainZones) writeFileSync(fileOf(d), `${twelve.join('\n')}\n`)
      for (const d of shopZones) writeFileSync(fileOf(d), zoneAsBind(twelve.join('\n'), d, 3600).text)
      dataDir = mkdtempSync(join(tmpdir(), 'cli-zones-data-'))
      services = await createAppServices({ userDataDir: dataDir, allowedOrigins: [APP], storeWorkerUrl: WORKER })
      const mainFields = profileFor(sb, 'Main', ANSWER_WAIT_MS)
      const main = await ok('accounts.create', { fields: mainFields, apiKey: sb.keys.full, storage: 'keychain' })
      const shopFields = { ...profileFor(sb, 'Live shop', ANSWER_WAIT_MS), environment: 'production' as const }
      await ok('accounts.create', { fields: shopFields, apiKey: MEMBER_KEY, storage: 'keychain' })
      await ok('accounts.setActive', { id: main.id })
      await services.close()
      services = undefined
    })
    afterAll(async () => {
      await services?.close()
      await sb?.close()
    })

    it('check over the folder: exit 0 while every zone is as its file says; then exit 4 naming exactly the zones that differ, as text and as JSON; nothing sent', async () => {
      const before = puts()
      const same = await cli(['dns', 'check', folder, '--offline'])
      expect(same.err).toContain('Not zone files, left out:')
      expect(same.out).toContain('20 zones: 0 to change, 20 as their files say, 0 refused, 0 failed.')
      expect(same.code).toBe(0)
      const differing = [mainZones[2]!, shopZones[0]!, shopZones[7]!]
      for (const d of differing) addToFile(d, '_dmarc', 'v=DMARC1; p=none')
      const text = await cli(['dns', 'check', folder, '--offline'])
      expect(text.code).toBe(4)
      const listed = /^Zones that differ from their files: (.*)\.$/m.exec(text.out)?.[1]?.split(', ')
      expect(listed?.sort()).toEqual([...differing].sort())
      // In the user's language.
      const ja = await cli(['dns', 'check', folder, '--offline'], { env: { LANG: 'ja_JP.UTF-8' } })
      expect(ja.code).toBe(4)
      expect(ja.out).toContain('ゾーン 20 件: 変更あり 3、ファイルのとおり 17、拒否 0、失敗 0。')
      expect(ja.out).toMatch(/^ファイルと異なるゾーン: /m)
      const json = await cli(['dns', 'check', folder, '--offline', '--json'])
      expect(json.code).toBe(4)
      const run = RunJson.parse(JSON.parse(json.out))
      expect(run.differ?.sort()).toEqual([...differing].sort())
      expect(run.counts).toEqual({ zones: 20, changing: 3, same: 17, refused: 0, failed: 0 })
      expect(run.zones).toHaveLength(20)
      expect(
        run.zones
          .filter((zn) => zn.same === false)
          .map((zn) => zn.domain)
          .sort(),
      ).toEqual([...differing].sort())
      expect(puts()).toBe(before)
    }, 120_000)

    it('plan then apply over 20 zones of two accounts: one plan, one confirmation (the production account’s name), each zone’s result', async () => {
      for (const d of [...mainZones, ...shopZones]) {
        if (!readFileSync(fileOf(d), 'utf8').includes('_dmarc')) addToFile(d, '_dmarc', 'v=DMARC1; p=none')
      }
      const before = puts()
      const plan = await cli(['dns', 'plan', folder, '--offline'])
      expect(plan.code).toBe(0)
      // One plan: a heading and an added line for each zone, the health of each, then the count.
      for (const d of [...mainZones, ...shopZones]) {
        expect(plan.out).toContain(`== ${d} (${mainZones.includes(d) ? 'Main' : 'Live shop'}, ${fileOf(d)}) ==`)
      }
      expect(plan.out.match(/^\+ add TXT _dmarc v=DMARC1; p=none$/gm)).toHaveLength(20)
      expect(plan.out).toContain('20 zones: 20 to change, 0 as their files say, 0 refused, 0 failed.')
      const planJson = RunJson.parse(JSON.parse((await cli(['dns', 'plan', folder, '--offline', '--json'])).out))
      expect(planJson.zones.map((zn) => zn.domain).sort()).toEqual([...mainZones, ...shopZones].sort())
      for (const zn of planJson.zones) {
        expect(zn.plan).toEqual(['+ add TXT _dmarc v=DMARC1; p=none'])
        expect(zn.health).toBeInstanceOf(Array)
      }
      expect(puts()).toBe(before)
      // The production account not confirmed: nothing at all is sent, not even the other account's zones.
      const refused = await cli(['dns', 'apply', folder, '--offline'])
      expect(refused.code).toBe(2)
      expect(refused.err).toContain('The account Live shop asks for its name before every write')
      const wrong = await cli(['dns', 'apply', folder, '--offline', '--confirm-account', 'Main'])
      expect(wrong.code).toBe(2)
      expect(wrong.err).toContain('None of the names given with --confirm-account (Main) is the name of the account')
      expect(puts()).toBe(before)
      const applied = await cli(['dns', 'apply', folder, '--offline', '--confirm-account', 'Live shop'])
      expect(applied.code).toBe(0)
      for (const d of [...mainZones, ...shopZones]) expect(applied.out).toContain(`Saved: 1 change to ${d}.`)
      expect(applied.out).toContain('20 zones saved, 0 as their files say, 0 not saved.')
      expect(puts()).toBe(before + 20)
      for (const d of [...mainZones, ...shopZones])
        expect(await liveRecords(d)).toContain('txt _dmarc v=DMARC1; p=none')
      // Applied again: every zone as its file says, nothing sent.
      const again = await cli(['dns', 'apply', folder, '--offline', '--confirm-account', 'Live shop', '--json'])
      expect(again.code).toBe(0)
      expect(RunJson.parse(JSON.parse(again.out)).zones.every((zn) => zn.result === 'unchanged')).toBe(true)
      expect(puts()).toBe(before + 20)
    }, 180_000)

    it('a zones configuration (JSON) names zones, files and accounts; one it cannot read is refused where it is wrong; a zone over the 30 % rule needs --force', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cli-zones-config-'))
      const config = join(dir, 'zones.json')
      const [first, second] = [mainZones[0]!, shopZones[0]!]
      const moved = join(dir, 'moved.txt')
      writeFileSync(moved, readFileSync(fileOf(first), 'utf8'))
      const zones = [
        { domain: first, file: 'moved.txt' },
        { domain: second, file: fileOf(second), account: 'Live shop', format: 'bind' },
      ]
      writeFileSync(config, JSON.stringify({ zones }))
      const checked = await cli(['dns', 'check', config, '--offline', '--json'])
      expect(checked.code).toBe(0)
      const run = RunJson.parse(JSON.parse(checked.out))
      expect(run.counts).toEqual({ zones: 2, changing: 0, same: 2, refused: 0, failed: 0 })
      expect(run.zones.map((zn) => [zn.domain, zn.account])).toEqual([
        [first, 'Main'],
        [second, 'Live shop'],
      ])
      const bad = join(dir, 'bad.json')
      writeFileSync(bad, JSON.stringify({ zones: [{ domain: first }] }))
      const refused = await cli(['dns', 'plan', bad, '--json'])
      expect(refused.code).toBe(2)
      const error = { code: 'cli.zones.badConfig', params: { where: 'zones.0.file' } }
      expect(JSON.parse(refused.out)).toMatchObject({ ok: false, error })
      // 8 of the 12 records moved to new addresses: over the rule, refused without --force, nothing sent.
      const live = await liveRecords(first)
      writeFileSync(moved, live.replace(/198\.51\.100\./g, '203.0.113.') + '\n')
      const before = puts()
      const overRule = await cli(['dns', 'apply', config, '--offline', '--confirm-account', 'Live shop'])
      expect(overRule.code).toBe(2)
      expect(overRule.err).toContain(`The plans of ${first} change more than 30 %`)
      expect(puts()).toBe(before)
      const forced = await cli(['dns', 'apply', config, '--offline', '--confirm-account', 'Live shop', '--force'])
      expect(forced.code).toBe(0)
      expect(forced.out).toContain(`Saved: 8 changes to ${first}.`)
      expect(puts()).toBe(before + 1)
      // The zone as the folder's file has it again, for the test after this one.
      const { ns_type } = await outside.call('domains.dns.get', { domain: first })
      await outside.call('domains.dns.set', { domain: first, ns_type, records: live, ttl: 3600 })
    }, 180_000)

    it('SIGINT while the first saves are held at the service: those end, no further zone starts, and the run says which zones were saved and which not started', async () => {
      for (const d of [...mainZones, ...shopZones]) addToFile(d, '_stop', 'stopped run')
      const before = puts()
      sb.faults.inject('domains.dns.set', { hold: true })
      onTestFinished(() => sb.faults.clear())
      let child: { kill(signal: NodeJS.Signals): boolean } | undefined
      let stopping = false
      const run = cli(['dns', 'apply', folder, '--offline', '--confirm-account', 'Live shop', '--json'], {
        onSpawn: (c) => (child = c),
        onErr: (soFar) => (stopping = soFar.includes('Stopping: the zones being saved now finish')),
      })
      // Three zones of each account on their way (the runner's ZONES_AT_ONCE), all held.
      await vi.waitFor(() => expect(sb.faults.held('domains.dns.set')).toBe(6), { timeout: 60_000, interval: 20 })
      child?.kill('SIGINT')
      await vi.waitFor(() => expect(stopping).toBe(true), { timeout: 30_000, interval: 20 })
      expect(sb.faults.release()).toBe(6)
      const ran = await run
      expect(ran.code).toBe(1)
      const result = RunJson.parse(JSON.parse(ran.out))
      const firstThree = [...mainZones.slice(0, 3), ...shopZones.slice(0, 3)]
      expect(result.saved?.sort()).toEqual([...firstThree].sort())
      expect(result.notStarted?.sort()).toEqual([...mainZones.slice(3), ...shopZones.slice(3)].sort())
      expect(puts()).toBe(before + 6)
      for (const d of firstThree) expect(await liveRecords(d)).toContain('txt _stop stopped run')
      for (const d of [...mainZones.slice(3), ...shopZones.slice(3)])
        expect(await liveRecords(d)).not.toContain('_stop')
      // In words too: what was saved, what was not started.
      sb.faults.inject('domains.dns.set', { hold: true })
      let textChild: { kill(signal: NodeJS.Signals): boolean } | undefined
      let textStopping = false
      const textRun = cli(['dns', 'apply', folder, '--offline', '--confirm-account', 'Live shop'], {
        onSpawn: (c) => (textChild = c),
        onErr: (soFar) => (textStopping = soFar.includes('Stopping:')),
      })
      await vi.waitFor(() => expect(sb.faults.held('domains.dns.set')).toBe(6), { timeout: 60_000, interval: 20 })
      textChild?.kill('SIGINT')
      await vi.waitFor(() => expect(textStopping).toBe(true), { timeout: 30_000, interval: 20 })
      sb.faults.clear()
      const text = await textRun
      expect(text.code).toBe(1)
      const saidSaved = /^Stopped\. Saved: (.*)\. Not started: (.*)\.$/m.exec(text.out)
      expect(saidSaved?.[1]?.split(', ')).toHaveLength(6)
      expect(saidSaved?.[2]?.split(', ')).toHaveLength(8)
      expect(puts()).toBe(before + 12)
    }, 180_000)
  },
)
