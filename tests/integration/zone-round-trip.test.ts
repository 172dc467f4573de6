/**
 * Issue 52, point 3: a zone checked against its own export is never refused and never changed.
 * Every zone of a seeded sandbox, and zones holding lines the service accepts through its API that
 * the app would not write itself (`cname shop @`, `cname x www`, an SRV to `xmpp`; `@` and single
 * labels as targets; trailing dots; mixed case; comments; lines the records model keeps raw; a
 * zone held with CRLF line ends), is exported in both formats, then checked, planned and applied
 * against that export: exit 0, no change, nothing sent, and exported again byte for byte the same;
 * BIND's named-checkzone accepts each BIND export.
 *
 * Two passes: every zone through the command's own code in this process (one session for all,
 * so that the sweep takes seconds), and two of the fixtures through the built `hosting-admin`,
 * as a script runs it.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '../../src/main/http'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { commandOf } from '../../src/cli/commands'
import { BadInput, chooseAccount, EXIT, Failed, failed, type Context } from '../../src/cli/context'
import { COMMON_FLAGS, readFlags } from '../../src/cli/flags'
import { openSession, type Session } from '../../src/cli/session'
import { texts } from '../../src/cli/text'
import { escapeHidden } from '@shared/dns/hidden-characters'
import { BUILT_STORE_WORKER, setUpAccount } from '../helpers/cli-account'
import { CLI_BIN, runCli, type Ran } from '../helpers/cli-process'

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS)
const haveCheckzone = spawnSync('named-checkzone', ['-v']).error === undefined

/** Zones holding what the service takes through its API and the app would not write itself. */
const FIXTURES: Record<string, string[]> = {
  // The three of the finding, with what they point to.
  'issue 52': [
    'a @ 192.0.2.10',
    'a www 192.0.2.10',
    'cname shop @',
    'cname x www',
    'srv _xmpp-server._tcp 5 0 5269 xmpp',
    'a xmpp 192.0.2.11',
  ],
  '@ targets': [
    'a @ 192.0.2.20',
    'ns sub @',
    'ptr 20 @',
    'srv _sip._udp 10 5 5060 @',
    'mx @ 10',
    'cname alias @',
    'txt @ v=spf1 a -all',
  ],
  'single labels': [
    'a @ 192.0.2.30',
    'a ns1 192.0.2.31',
    'a host 192.0.2.32',
    'ns dept ns1',
    'ptr 32 host',
    'cname ftp host',
    'mx mail 10',
    'a mail 192.0.2.33',
    'srv _imaps._tcp 0 1 993 mail',
  ],
  'trailing dots and case': [
    'A WWW 192.0.2.40',
    'CNAME Docs WWW.Example.COM.',
    'cname blog www.',
    'Mx Mail.Example.Net. 10',
    'NS Sub NS1.Example.Net.',
    'srv _sip._tcp 10 5 5060 SIP.Example.Net.',
    'PTR 40 Host.Example.Org.',
    'cname relative host.example.org',
    'a www. 192.0.2.41',
    'TXT @ "v=spf1 -all"',
  ],
  'lines the model keeps raw': [
    '# a comment',
    '; another',
    '// and another',
    '',
    'a @ 192.0.2.50',
    '  # an indented comment  ',
    'mx 10 mail.example.net.',
    'mx www mail.example.net. 10',
    'mx @ mail.example.net. 20',
    'mx a b c d',
    'srv _sip._tcp 10 5060 sip.example.net.',
    'txt @ "unbalanced',
    'caa @ 0 issue letsencrypt.org',
    'a   spaced    192.0.2.51',
    'a\ttabbed\t192.0.2.52',
    'txt trailing v=spf1 -all   ',
    'a bad 999.0.0.1',
    'aaaa bad6 not-an-address',
    'cname beside www.example.net.',
    'a beside 192.0.2.53',
    '',
  ],
  'CRLF line ends': [
    'a @ 192.0.2.60\r',
    '# saved from a form\r',
    'cname shop @\r',
    'mx 10 mail.example.net.\r',
    'txt @ v=spf1 -all',
  ],
}
const FIXTURE_NAMES = Object.keys(FIXTURES)

let sb: Sandbox
let dataDir: string
/** Every zone of the sandbox, the fixtures last. */
let zones: string[]
let fixtureZones: string[]
const puts = () => sb.received.filter((r) => r.method === 'PUT' && r.endpoint === 'domains.dns.set').length
const dir = mkdtempSync(join(tmpdir(), 'zone-round-trip-'))

/** The steps of one round trip, each run as `run` runs a command line; what differs is named in the result. */
async function roundTrip(
  run: (argv: string[]) => Promise<Ran>,
  zone: string,
  format: 'records' | 'bind',
): Promise<string[]> {
  const problems: string[] = []
  const exportArgs = ['dns', 'export', zone, ...(format === 'bind' ? ['--bind'] : [])]
  const first = await run(exportArgs)
  if (first.code !== 0) return [`export: exit ${first.code}: ${first.err}`]
  const file = join(dir, `${zone}.${format === 'bind' ? 'zone' : 'txt'}`)
  writeFileSync(file, first.out)
  if (format === 'bind' && haveCheckzone) {
    const checked = spawnSync('named-checkzone', [new URL(`http://${zone}`).hostname, file], { encoding: 'utf8' })
    if (checked.status !== 0) problems.push(`named-checkzone: ${checked.stdout}`)
  }
  const sentBefore = puts()
  for (const step of ['check', 'plan', 'apply'] as const) {
    const r = await run(['dns', step, zone, file, '--offline'])
    if (r.code !== 0 || !r.out.includes('nothing to change'))
      problems.push(`${step}: exit ${r.code}: ${r.out} ${r.err.split(/^Health of /m)[0] ?? ''}`)
  }
  if (puts() !== sentBefore) problems.push(`apply sent ${puts() - sentBefore} save(s)`)
  const again = await run(exportArgs)
  if (again.out !== first.out) problems.push(`export again differs:\n${first.out}\n---\n${again.out}`)
  return problems
}

describe.skipIf(!hasSecretService || !existsSync(CLI_BIN))(
  'a zone round trip: export, check, plan, apply, export (skipped: no D-Bus session or no build; run through npm test)',
  () => {
    beforeAll(async () => {
      sb = await startSandbox({ domains: 60 + FIXTURE_NAMES.length })
      const outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      const all = sb.state.domains.map((d) => d.domainname)
      fixtureZones = all.slice(60)
      for (const [i, name] of FIXTURE_NAMES.entries()) {
        const domain = fixtureZones[i] ?? ''
        const { ns_type } = await outside.call('domains.dns.get', { domain })
        await outside.call('domains.dns.set', {
          domain,
          ns_type,
          records: (FIXTURES[name] ?? []).join('\n'),
          ttl: 3600,
        })
      }
      zones = all
      dataDir = mkdtempSync(join(tmpdir(), 'zone-round-trip-data-'))
      await setUpAccount(sb, dataDir, 'Main')
    })
    afterAll(async () => {
      await sb?.close()
    })

    it('holds the fixtures as they were saved', async () => {
      const outside = createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths })
      for (const [i, name] of FIXTURE_NAMES.entries()) {
        expect((await outside.call('domains.dns.get', { domain: fixtureZones[i] ?? '' })).records, name).toBe(
          (FIXTURES[name] ?? []).join('\n'),
        )
      }
    })

    it('every zone, both formats, through the command’s own code: no change, nothing sent, the same export', async () => {
      const opened = await openSession(dataDir, { storeWorkerUrl: BUILT_STORE_WORKER })
      if (!opened.ok) throw new Error(opened.error.code)
      const session: Session = opened.session
      try {
        const run = inProcess(session)
        expect(zones).toHaveLength(60 + FIXTURE_NAMES.length)
        const problems: Record<string, string[]> = {}
        for (const zone of zones) {
          for (const format of ['records', 'bind'] as const) {
            const found = await roundTrip(run, zone, format)
            if (found.length) problems[`${zone} (${format})`] = found
          }
        }
        expect(problems).toEqual({})
      } finally {
        await session.close()
      }
    }, 240_000)

    it('the finding’s zone and the one of lines the model keeps raw through the built hosting-admin', async () => {
      const run = (argv: string[]) => runCli(argv, { dataDir })
      const problems: Record<string, string[]> = {}
      // Each run of the built command opens the data folder anew (over a second): two zones of the fixtures, not all.
      for (const zone of [
        fixtureZones[FIXTURE_NAMES.indexOf('issue 52')] ?? '',
        fixtureZones[FIXTURE_NAMES.indexOf('lines the model keeps raw')] ?? '',
      ]) {
        for (const format of ['records', 'bind'] as const) {
          const found = await roundTrip(run, zone, format)
          if (found.length) problems[`${zone} (${format})`] = found
        }
      }
      expect(problems).toEqual({})
    }, 120_000)
  },
)

/**
 * A command line run as the built command runs it (src/cli/main.ts: the command table, its flags,
 * the refusals and failures as exit codes, the printed text escaped), on a session kept open for
 * the whole sweep instead of one opened per command.
 */
function inProcess(session: Session): (argv: string[]) => Promise<Ran> {
  return async (argv) => {
    const out: string[] = []
    const err: string[] = []
    const c: Context = {
      session,
      say: texts('en'),
      io: { out: (t) => out.push(escapeHidden(t)), err: (t) => err.push(escapeHidden(t)), env: {} },
      json: false,
      dataDir,
    }
    const look = readFlags(argv)
    const found = commandOf(look.ok ? look.positionals : [])
    const command = found?.command.run
    if (!found || !command) throw new Error(`no command ${argv.join(' ')}`)
    const read = readFlags(argv, [...COMMON_FLAGS, ...found.command.flags])
    if (!read.ok) throw new Error(`flags of ${argv.join(' ')}: ${read.problem.key}`)
    let code: number
    try {
      code = await command(c, {
        flags: read.flags,
        args: read.positionals.slice(found.words),
        account: () => chooseAccount(c, undefined),
        accounts: async () => [await chooseAccount(c, undefined)],
      })
    } catch (e) {
      if (e instanceof BadInput) {
        err.push(e.text)
        code = EXIT.badInput
      } else if (e instanceof Failed) code = failed(c, e.error)
      else throw e
    }
    return { code, out: out.map((t) => `${t}\n`).join(''), err: err.map((t) => `${t}\n`).join('') }
  }
}
