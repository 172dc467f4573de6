/**
 * The built `hosting-admin` command's help and refusals, as a script sees them: each command's
 * `--help` describes that command (its own flags), in English and Japanese; with --json, bad
 * input is still one JSON object on stdout (exit 2), whatever was wrong.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/cli/commands'
import { helpOf } from '../../src/cli/main'
import { texts } from '../../src/cli/text'
import { CLI_BIN, runCli } from '../helpers/cli-process'
import { match } from '../helpers/matchers'

const dataDir = mkdtempSync(join(tmpdir(), 'cli-help-'))
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { dataDir, env })

/** What stdout held: exactly one line, a JSON object. */
function oneJsonObject(out: string): unknown {
  const lines = out.split('\n').filter((l) => l !== '')
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0] ?? '')
}

describe.skipIf(!existsSync(CLI_BIN))('the command’s help and refusals (skipped: run npm run build first)', () => {
  it.each([
    ['en', 'C'],
    ['ja', 'ja_JP.UTF-8'],
  ] as const)(
    '--help after each command describes that command, in %s',
    async (locale, LANG) => {
      const say = texts(locale)
      const seen = new Set<string>()
      for (const command of COMMANDS) {
        const r = await cli([...command.words.split(' '), '--help'], { LANG })
        expect(r, command.words).toMatchObject({ code: 0, err: '' })
        expect(r.out.trim(), command.words).toBe(helpOf(say, command))
        expect(r.out, command.words).toContain(`hosting-admin ${command.words}`)
        seen.add(r.out)
      }
      expect(seen.size).toBe(COMMANDS.length)
      // Each names its own flags, and not another command's.
      const apply = await cli(['dns', 'apply', 'example.com', 'zone.txt', '--help'], { LANG })
      expect(apply.out).toContain('--confirm-account')
      expect(apply.out).not.toContain('--every')
      const ddns = await cli(['ddns', 'update', '--help'], { LANG })
      expect(ddns.out).toContain('--every')
      expect(ddns.out).not.toContain('--force')
      // A group alone: the help of each of its commands; nothing alone: the overview.
      const dns = await cli(['dns', '--help'], { LANG })
      expect(dns.code).toBe(0)
      for (const words of ['dns export', 'dns plan', 'dns check', 'dns apply'])
        expect(dns.out).toContain(`hosting-admin ${words}`)
      expect(dns.out).not.toContain('hosting-admin renew')
      expect((await cli(['--help'], { LANG })).out.trim()).toBe(say.t('cli.usage'))
      // One process per command, one after another: the bound grows with the command table.
    },
    10_000 * (COMMANDS.length + 6),
  )

  it.each([
    [['--json'], 'cli.needsCommand', 'Name a command'],
    [['dns', 'plan', '--json'], 'cli.needsDomain', 'Name the domain'],
    [['dns', 'plan', 'example.com', '--json'], 'cli.needsFile', 'Name the zone file'],
    [
      ['dns', 'export', 'example.com', '--every', '5m', '--json'],
      'cli.flag.otherCommands',
      'hosting-admin dns export takes no --every: it is an option of ddns update.',
    ],
    [['dns', 'frobnicate', '--json'], 'cli.unknownCommand', 'Unknown command "dns frobnicate"'],
    [['dns', 'export', 'example.com', '--format', 'yaml', '--json'], 'cli.badFormat', 'Unknown format "yaml"'],
    [['renew', '--expiring-within', 'soon', '--json'], 'cli.badDuration', '--expiring-within takes a duration'],
    [['renew', '--json'], 'cli.renew.needsWithin', 'Say which domains'],
    [
      ['ddns', 'update', 'example.com', '--every', '10s', '--json'],
      'cli.ddns.tooOften',
      '--every takes a period of at least 1m',
    ],
    [
      ['dns', 'export', 'example.com', '--key-file', '/nonexistent/key', '--json'],
      'cli.key.unreadable',
      'Cannot read the key file',
    ],
    [
      ['dns', 'export', 'example.com', '--account', 'Nobody', '--json'],
      'cli.noAccount',
      'No account is named "Nobody"',
    ],
  ])('with --json, bad input is one JSON object on stdout, exit 2: %j', async (args, code, said) => {
    const r = await cli(args)
    expect(r.code).toBe(2)
    expect(oneJsonObject(r.out)).toMatchObject({
      ok: false,
      error: { kind: 'bad-input', code, message: match.stringContaining(said) },
    })
    expect(r.err).toContain(said)
  })

  it.each([
    ['en', 'C'],
    ['ja', 'ja_JP.UTF-8'],
  ] as const)(
    'a flag the command does not take, or written wrong, is refused in the command’s own words, in %s (exit 2, the command’s help after)',
    async (locale, LANG) => {
      const say = texts(locale)
      const cases: [string[], string][] = [
        [
          ['accounts', '--zone', 'example.com'],
          say.t('cli.flag.otherCommands', {
            command: 'accounts',
            option: '--zone',
            commands: 'acme auth, acme present, acme cleanup',
          }),
        ],
        [['renew', '--expiring-within', '30d', '--bogus'], say.t('cli.flag.unknown', { option: '--bogus' })],
        [['accounts', '-x'], say.t('cli.flag.unknown', { option: '-x' })],
        [['accounts', '--account'], say.t('cli.flag.needsValue', { option: '--account' })],
        [
          ['accounts', '--account', '--json'],
          say.t('cli.flag.valueLikeOption', { option: '--account', value: '--json' }),
        ],
        [['accounts', '--json=yes'], say.t('cli.flag.takesNoValue', { option: '--json' })],
      ]
      const accounts = COMMANDS.find((c) => c.words === 'accounts')
      for (const [args, said] of cases) {
        const r = await cli(args, { LANG })
        expect(r.code, args.join(' ')).toBe(2)
        const [first, ...rest] = r.err.trim().split('\n')
        expect(first, args.join(' ')).toBe(said)
        if (args[0] === 'accounts' && accounts) expect(rest.join('\n')).toBe(helpOf(say, accounts))
        // Not the parser's English, nor its advice to put the flag after `--`.
        expect(r.err, args.join(' ')).not.toMatch(
          /Unknown option|argument missing|ambiguous|does not take an argument|after '--'/,
        )
      }
    },
  )

  it('with --json, a refusal is worded in the user’s language', async () => {
    const r = await cli(['dns', 'plan', '--json'], { LANG: 'ja_JP.UTF-8' })
    expect(r.code).toBe(2)
    expect(oneJsonObject(r.out)).toMatchObject({
      ok: false,
      error: { code: 'cli.needsDomain', message: texts('ja').t('cli.needsDomain') },
    })
  })
})
