/**
 * The command table (DNSControl's commands.go model): each command names its words, the flags
 * it takes beyond the common ones, the checks made before anything is opened, its help, and what
 * it runs. A new command is one entry here, its help in the catalogue (cli.help.*), and its module.
 *
 * Each command's module is imported when it runs, never with the table: `--help`, a refusal and
 * `accounts` start without loading the services, HTTP client and database drivers of the others
 * (issue 52 point 7; npm run bench -- cli-start).
 */
import { existsSync } from 'node:fs'
import type { AccountView } from '@shared/accounts'
import type { MessageKey } from '@shared/i18n/catalogue'
import type { Params } from '@shared/i18n/format'
import { EXIT, failed, type Confirmation, type Context, type Io } from './context'
import type { FlagName, Flags } from './flags'
import type { KeySource } from './key-source'
import type { Texts } from './text'
import type { ZoneFormat } from './zone-file'
import type { AccountRow } from './accounts-list'

/** What a command runs with, once its flags and checks passed and the session is open. */
export interface CommandInput {
  flags: Flags
  /** The positional arguments after the command's words. */
  args: string[]
  /**
   * The account it acts for (`name`: the one a zone set or `accounts` names; else --account, --demo,
   * else the app's active one), its key then served; asked only by commands that act for one.
   */
  account(name?: string): Promise<AccountView>
  /**
   * The accounts a command across accounts acts for: the one --account, --demo or a key file or
   * credential names (a key source serves one account only), else every account but the demo.
   */
  accounts(): Promise<AccountView[]>
  /** The key source given, read and checked (key-source.ts), for a command that keeps a key (`keepsKey`). */
  keySource?: KeySource | undefined
}

/** A refusal found by a command's checks: a catalogue key and its parameters (exit 2, nothing opened). */
export interface Refusal {
  key: MessageKey
  params?: Params
}

interface CommandBase {
  /** As typed: `accounts`, `dns apply`. */
  words: string
  /** The flags it takes beyond the common ones (flags.ts); any other is refused. */
  flags: readonly FlagName[]
  /** What `<words> --help` prints (followed by the common options). */
  help: MessageKey
  /** Checked before a key is read or the data folder opened. */
  check?(flags: Flags, args: string[]): Refusal | undefined
  /**
   * A hook of an ACME client: it waits (up to --timeout) for a data folder another command holds,
   * and says everything on stdout (certbot shows a hook's stderr as an error).
   */
  hook?: boolean
  /**
   * It keeps the key it is given (accounts add): the key source given is handed to it, and stands
   * in for the keychain only when --keychain does not ask for the keychain itself.
   */
  keepsKey?: boolean
  /**
   * An answer without the app's services, when one can be had (undefined: open the session and
   * run): `accounts` reads the accounts file when no app holds the folder (accounts-list.ts).
   */
  quick?(input: StandaloneInput): Promise<number | undefined>
}

/** What a command that needs no account, key or session runs with (team mode's own commands). */
export interface StandaloneInput {
  flags: Flags
  args: string[]
  dataDir: string
  io: Io
  say: Texts
}

/** A command runs in a session of the app's services, or (team mode's own) on its own. */
export type CliCommand = CommandBase &
  (
    | { run(c: Context, input: CommandInput): Promise<number>; standalone?: undefined }
    | { standalone(input: StandaloneInput): Promise<number>; run?: undefined }
  )

const CONFIRM_FLAGS = ['yes', 'confirm-account'] as const satisfies readonly FlagName[]
const ACME_FLAGS = ['zone', 'timeout', 'poll-every', 'force', ...CONFIRM_FLAGS] as const satisfies readonly FlagName[]

const confirmationOf = (flags: Flags): Confirmation => ({
  yes: flags.on('yes'),
  typedName: flags.text('confirm-account'),
})

const ZONE_FORMATS: readonly ZoneFormat[] = ['records', 'bind']
const formatAsked = (flags: Flags): ZoneFormat | undefined => ZONE_FORMATS.find((f) => f === flags.text('format'))

function formatRefusal(flags: Flags): Refusal | undefined {
  const format = flags.text('format')
  return format !== undefined && formatAsked(flags) === undefined
    ? { key: 'cli.badFormat', params: { format } }
    : undefined
}

/**
 * A zone file's commands: a domain and a file, the format named or guessed; or one folder or
 * zones configuration (zones.ts). One argument that names nothing there is a domain without its file.
 */
function zoneCheck(flags: Flags, args: string[]): Refusal | undefined {
  const [domain, file] = args
  if (domain && !file && existsSync(domain)) return formatRefusal(flags)
  return formatRefusal(flags) ?? (!domain ? { key: 'cli.needsDomain' } : !file ? { key: 'cli.needsFile' } : undefined)
}

function fromFile(
  words: string,
  mode: 'plan' | 'check' | 'apply',
  help: MessageKey,
  flags: readonly FlagName[],
): CliCommand {
  return {
    words,
    flags: ['format', 'offline', ...flags],
    help,
    check: zoneCheck,
    run: async (c, { flags: f, args: [domain = '', file], account }) => {
      const opts = { ...confirmationOf(f), force: f.on('force'), offline: f.on('offline') }
      if (file === undefined) {
        const typedNames = f.all('confirm-account')
        const { zonesFromSet } = await import('./zones')
        return zonesFromSet(c, domain, { mode, asked: formatAsked(f), ...opts, typedNames, accountNamed: account })
      }
      return (await import('./dns-files')).zoneFromFile(c, await account(), domain, file, formatAsked(f), mode, opts)
    },
  }
}

function acmeHook(verb: 'auth' | 'present' | 'cleanup', help: MessageKey): CliCommand {
  return {
    words: `acme ${verb}`,
    flags: ACME_FLAGS,
    help,
    hook: true,
    async run(c, { flags, args, account }) {
      const chosen = await account()
      const { acme, acmeRequestOf } = await import('./acme')
      const request = acmeRequestOf(c, verb, args)
      return acme(c, chosen, request, {
        ...confirmationOf(flags),
        zone: flags.text('zone'),
        force: flags.on('force'),
        timeoutMs: flags.ms('timeout') ?? ACME_TIMEOUT_MS,
        intervalMs: flags.ms('poll-every') ?? 5000,
      })
    },
  }
}

/** How long an ACME hook waits for the nameservers (and for the data folder, or a busy zone) unless --timeout says. */
export const ACME_TIMEOUT_MS = 300_000

/** The update address serves every user of the service: no faster than once a minute. */
const DDNS_MIN_EVERY_MS = 60_000

const TEAM_INIT_FLAGS = [
  'host',
  'port',
  'database',
  'user',
  'ca-file',
  'sslmode',
  'unencrypted',
  'member',
  'workstation',
] as const satisfies readonly FlagName[]

/** team add-member|remove-member <name>: the owner's connection only (team-members.ts). */
function teamMemberCommand(verb: 'add-member' | 'remove-member' | 'retention', help: MessageKey): CliCommand {
  return {
    words: `team ${verb}`,
    flags: verb === 'add-member' ? ['password-stdin'] : [],
    help,
    check: (_flags, args) =>
      args[0]
        ? undefined
        : { key: verb === 'retention' ? 'cli.team.badRetention' : 'cli.team.needsMemberName', params: { days: '' } },
    standalone: async ({ flags, args, dataDir, io, say }) =>
      (await import('./team-members')).teamMembers(
        verb,
        args[0],
        { passwordStdin: flags.on('password-stdin'), json: flags.on('json') },
        dataDir,
        io,
        say,
      ),
  }
}

/** team init|status|migrate: only the team database, no account, key or session. */
function teamCommand(verb: 'init' | 'status' | 'migrate', help: MessageKey): CliCommand {
  return {
    words: `team ${verb}`,
    flags: verb === 'init' ? TEAM_INIT_FLAGS : [],
    help,
    standalone: async ({ flags, dataDir, io, say }) =>
      (await import('./team')).team(
        verb,
        {
          host: flags.text('host'),
          port: flags.text('port'),
          database: flags.text('database'),
          user: flags.text('user'),
          'ca-file': flags.text('ca-file'),
          sslmode: flags.text('sslmode'),
          unencrypted: flags.on('unencrypted'),
          member: flags.text('member'),
          workstation: flags.text('workstation'),
          json: flags.on('json'),
        },
        dataDir,
        io,
        say,
      ),
  }
}

/** accounts test|remove: one account, named as the command's argument (or by --account). */
const accountNamed = (_flags: Flags, [name]: string[]): Refusal | undefined =>
  name ? undefined : { key: 'cli.accounts.needsName' }

export const COMMANDS: readonly CliCommand[] = [
  // Before `accounts` itself: a command is found by its first words.
  {
    words: 'accounts add',
    flags: ['base-url', 'environment', 'safety', 'colour', 'read-only', 'keychain'],
    help: 'cli.help.accountsAdd',
    // The name and address here; each choice's words in accounts.ts (addCheck), loaded only to run.
    check: (flags, [name]) =>
      !name
        ? { key: 'cli.accounts.needsName' }
        : flags.text('base-url') === undefined
          ? { key: 'cli.accounts.needsBaseUrl' }
          : undefined,
    keepsKey: true,
    run: async (c, { flags, args: [name = ''], keySource }) =>
      (await import('./accounts')).addAccount(c, { name, flags, source: keySource }),
  },
  {
    words: 'accounts test',
    flags: [],
    help: 'cli.help.accountsTest',
    check: accountNamed,
    run: async (c, { args: [name], account }) => (await import('./accounts')).testAccount(c, await account(name)),
  },
  {
    words: 'accounts remove',
    flags: ['yes'],
    help: 'cli.help.accountsRemove',
    check: accountNamed,
    run: async (c, { flags, args: [name], account }) =>
      (await import('./accounts')).removeAccount(c, await account(name), flags.on('yes')),
  },
  {
    words: 'accounts rename',
    flags: [],
    help: 'cli.help.accountsRename',
    check: (_flags, [from, to]) => (!from || !to ? { key: 'cli.accounts.needsNames' } : undefined),
    run: async (c, { args: [from, to = ''], account }) =>
      (await import('./accounts')).renameAccount(c, await account(from), to),
  },
  {
    words: 'accounts',
    flags: [],
    help: 'cli.help.accounts',
    check: (_flags, [verb]) =>
      verb === undefined ? undefined : { key: 'cli.unknownCommand', params: { command: `accounts ${verb}` } },
    quick: async ({ dataDir, io, flags }) => {
      const rows = await (await import('./accounts-list')).accountRowsQuick(dataDir)
      return rows && printAccounts(io, flags.on('json'), rows)
    },
    run: (c) => listAccounts(c),
  },
  {
    words: 'dns export',
    flags: ['format', 'bind'],
    help: 'cli.help.dnsExport',
    check: (flags, [domain]) => formatRefusal(flags) ?? (!domain ? { key: 'cli.needsDomain' } : undefined),
    run: async (c, { flags, args: [domain = ''], account }) =>
      (await import('./dns-files')).exportZone(
        c,
        await account(),
        domain,
        flags.on('bind') || flags.text('format') === 'bind',
      ),
  },
  fromFile('dns plan', 'plan', 'cli.help.dnsPlan', []),
  fromFile('dns check', 'check', 'cli.help.dnsCheck', []),
  fromFile('dns apply', 'apply', 'cli.help.dnsApply', ['force', ...CONFIRM_FLAGS]),
  {
    words: 'dns served',
    flags: ['all'],
    help: 'cli.help.dnsServed',
    check: (flags, [domain]) => (!domain && !flags.on('all') ? { key: 'cli.needsDomain' } : undefined),
    run: async (c, { flags, args: [domain], account }) =>
      (await import('./served')).served(c, await account(), flags.on('all') ? undefined : domain),
  },
  acmeHook('auth', 'cli.help.acmeAuth'),
  acmeHook('present', 'cli.help.acmePresent'),
  acmeHook('cleanup', 'cli.help.acmeCleanup'),
  {
    words: 'renew',
    flags: ['expiring-within', 'years', 'skip-busy', ...CONFIRM_FLAGS],
    help: 'cli.help.renew',
    check(flags) {
      const years = flags.text('years')
      if (years !== undefined && !validYears(years)) return { key: 'cli.badYears', params: { value: years } }
      return flags.ms('expiring-within') === undefined ? { key: 'cli.renew.needsWithin' } : undefined
    },
    run: async (c, { flags, account }) =>
      (await import('./renew')).renew(c, await account(), {
        ...confirmationOf(flags),
        withinDays: (flags.ms('expiring-within') ?? 0) / 86_400_000,
        years: Number(flags.text('years') ?? 1),
        now: new Date(),
        skipBusy: flags.on('skip-busy'),
      }),
  },
  {
    words: 'ddns update',
    flags: ['host', 'ip', 'detect', 'every'],
    help: 'cli.help.ddnsUpdate',
    check(flags, [domain]) {
      if (!domain) return { key: 'cli.needsDomain' }
      const every = flags.ms('every')
      return every !== undefined && every < DDNS_MIN_EVERY_MS ? { key: 'cli.ddns.tooOften' } : undefined
    },
    async run(c, { flags, args: [domain = ''], account }) {
      const chosen = await account()
      const { ddnsOptionsOf, ddnsTargetOf, updateEvery, updateOnce } = await import('./ddns')
      const options = ddnsOptionsOf(
        c,
        { host: flags.text('host'), ip: flags.text('ip'), detect: flags.on('detect') },
        flags.ms('every'),
      )
      if (options.everyMs === undefined) return updateOnce(c, chosen, domain, options)
      const target = await ddnsTargetOf(c, chosen, domain)
      // A running updater leaves the data folder to the app: it holds only the password, in memory.
      await c.session.close()
      return updateEvery(c, target, { ...options, everyMs: options.everyMs })
    },
  },
  teamCommand('init', 'cli.help.teamInit'),
  teamCommand('status', 'cli.help.teamStatus'),
  teamCommand('migrate', 'cli.help.teamMigrate'),
  teamMemberCommand('add-member', 'cli.help.teamAddMember'),
  teamMemberCommand('remove-member', 'cli.help.teamRemoveMember'),
  teamMemberCommand('retention', 'cli.help.teamRetention'),
  {
    // Not a team-database command of its own: it reads the jobs through the app's runner, with the accounts' keys.
    words: 'team settle',
    flags: ['timeout'],
    help: 'cli.help.teamSettle',
    run: async (c, { flags, accounts }) =>
      (await import('./settle')).settleUnknown(c, await accounts(), {
        timeoutMs: flags.ms('timeout') ?? SETTLE_TIMEOUT_MS,
      }),
  },
]

/** How long `team settle` looks in the service's log, and waits between looks while the log may lag, unless --timeout says. */
const SETTLE_TIMEOUT_MS = 60_000

const validYears = (text: string) => Number.isInteger(Number(text)) && Number(text) >= 1 && Number(text) <= 9

/**
 * The command the positionals name, with how many words it took; for a group word alone
 * (`dns`), its commands, whose help a `dns --help` prints.
 */
export function commandOf(positionals: readonly string[]): { command: CliCommand; words: number } | undefined {
  for (const command of COMMANDS) {
    const words = command.words.split(' ')
    if (words.every((w, i) => positionals[i] === w)) return { command, words: words.length }
  }
  return undefined
}

export const commandsOfGroup = (group: string): CliCommand[] => COMMANDS.filter((c) => c.words.split(' ')[0] === group)

/** The commands that take `flag` beyond the common ones, as typed. */
export const commandsTaking = (flag: FlagName): string[] =>
  COMMANDS.filter((c) => c.flags.includes(flag)).map((c) => c.words)

/** The accounts as the app lists them, through its services (or its door, while it runs). */
async function listAccounts(c: Context): Promise<number> {
  const r = await c.session.call('accounts.list', {})
  if (!r.ok) return failed(c, r.error)
  return printAccounts(
    c.io,
    c.json,
    r.value.accounts.map((a) => ({
      id: a.id,
      name: a.name,
      environment: a.environment,
      readOnly: a.readOnly,
      active: a.id === r.value.activeId,
    })),
  )
}

function printAccounts(io: Io, json: boolean, rows: AccountRow[]): number {
  if (json) io.out(JSON.stringify({ accounts: rows }))
  else
    for (const a of rows)
      io.out(`${a.active ? '*' : ' '} ${a.name}\t${a.environment}${a.readOnly ? '\tread-only' : ''}\t${a.id}`)
  return EXIT.done
}
