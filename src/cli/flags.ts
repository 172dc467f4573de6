/**
 * Every flag the command knows, once: its kind, and for a duration how it is read. A command
 * takes the common flags and the ones it declares (commands.ts); any other is refused (exit 2).
 * No flag takes a key: a command line is readable by every user of the machine.
 */
import { parseArgs } from 'node:util'

export const FLAGS = {
  account: { type: 'string' },
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  // Where the key is when no keychain is there (cron, systemd): key-source.ts. No option takes the key itself.
  'key-file': { type: 'string' },
  'key-credential': { type: 'string' },
  demo: { type: 'boolean' },
  format: { type: 'string' },
  bind: { type: 'boolean' },
  force: { type: 'boolean' },
  yes: { type: 'boolean' },
  'confirm-account': { type: 'string' },
  zone: { type: 'string' },
  timeout: { type: 'string' },
  'poll-every': { type: 'string' },
  'expiring-within': { type: 'string' },
  years: { type: 'string' },
  host: { type: 'string' },
  ip: { type: 'string' },
  detect: { type: 'boolean' },
  every: { type: 'string' },
  // dns plan|check|apply: health findings without asking DNS; dns served: every zone of the account.
  offline: { type: 'boolean' },
  all: { type: 'boolean' },
  // team init (team.ts): the team database's connection, never its password.
  port: { type: 'string' },
  database: { type: 'string' },
  user: { type: 'string' },
  'ca-file': { type: 'string' },
  member: { type: 'string' },
  workstation: { type: 'string' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; short?: string }>

export type FlagName = keyof typeof FLAGS
type FlagOfType<T> = { [K in FlagName]: (typeof FLAGS)[K]['type'] extends T ? K : never }[FlagName]
export type TextFlag = FlagOfType<'string'>
export type SwitchFlag = FlagOfType<'boolean'>
export type DurationFlag = Extract<TextFlag, 'timeout' | 'poll-every' | 'expiring-within' | 'every'>

/** What every command takes: where the data and the key are, which account, the output's form, help. */
export const COMMON_FLAGS = ['account', 'json', 'data-dir', 'help', 'key-file', 'key-credential', 'demo'] as const satisfies readonly FlagName[]

const DURATION_FLAGS: readonly DurationFlag[] = ['timeout', 'poll-every', 'expiring-within', 'every']

/** A duration as scripts write it: 90s, 5m, 2h, 30d, 500ms, or plain seconds. */
export function durationMs(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim())
  if (!m) return undefined
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 's'] ?? 1000
  return Number(m[1]) * unit
}

/** The flags given to one command, read by kind. */
export interface Flags {
  text(name: TextFlag): string | undefined
  on(name: SwitchFlag): boolean
  /** A duration flag in milliseconds (checked when the flags were read), else undefined. */
  ms(name: DurationFlag): number | undefined
}

export type FlagsRead =
  | { ok: true; flags: Flags; positionals: string[] }
  | { ok: false; problem: { key: 'cli.badArguments'; params: { reason: string } } | { key: 'cli.badDuration'; params: { option: string; value: string } } }

const VALIDATION_VALUE = /^[A-Za-z0-9_-]{43}$/
const HELD = '\u0000held-value-'

const isTextFlag = (name: FlagName): name is TextFlag => FLAGS[name].type === 'string'

/**
 * The arguments read with only `allowed` flags known (strictly: any other is refused), each
 * duration checked. Without `allowed`, every flag is known and nothing is refused: that first
 * look finds the command's words and whether --json or --help was asked, even when the strict
 * read of that command then refuses something.
 */
export function readFlags(argv: string[], allowed?: readonly FlagName[]): FlagsRead {
  const names: readonly FlagName[] = allowed ?? Object.keys(FLAGS).filter((n): n is FlagName => n in FLAGS)
  const options = Object.fromEntries(names.map((n) => [n, FLAGS[n]]))
  // A DNS-01 validation value is 43 characters of base64url and may begin with '-' (1 in 64):
  // lego passes it as a bare argument, which parseArgs would read as an unknown flag. Such an
  // argument stands in the read as a placeholder no command line can hold (NUL), then is put back.
  const heldValues: string[] = []
  const args = argv.map((a, i) => {
    const beforeEnd = !argv.slice(0, i).includes('--')
    if (!beforeEnd || !a.startsWith('-') || !VALIDATION_VALUE.test(a)) return a
    heldValues.push(a)
    return `${HELD}${heldValues.length - 1}`
  })
  let parsed
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: allowed !== undefined })
  } catch (err) {
    return { ok: false, problem: { key: 'cli.badArguments', params: { reason: err instanceof Error ? err.message : String(err) } } }
  }
  const texts = new Map<TextFlag, string>()
  const switches = new Set<SwitchFlag>()
  for (const name of names) {
    const value = parsed.values[name]
    if (isTextFlag(name)) {
      if (typeof value === 'string') texts.set(name, value)
    } else if (value === true) switches.add(name)
  }
  const durations = new Map<DurationFlag, number>()
  // The first look refuses nothing: the command's own read says what is wrong, with its help.
  for (const name of allowed ? DURATION_FLAGS : []) {
    const given = texts.get(name)
    if (given === undefined) continue
    const ms = durationMs(given)
    if (ms === undefined) return { ok: false, problem: { key: 'cli.badDuration', params: { option: `--${name}`, value: given } } }
    durations.set(name, ms)
  }
  return {
    ok: true,
    positionals: parsed.positionals.map((p) => (p.startsWith(HELD) ? (heldValues[Number(p.slice(HELD.length))] ?? p) : p)),
    flags: { text: (name) => texts.get(name), on: (name) => switches.has(name), ms: (name) => durations.get(name) },
  }
}
