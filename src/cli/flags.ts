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
  'key-stdin': { type: 'boolean' },
  demo: { type: 'boolean' },
  format: { type: 'string' },
  bind: { type: 'boolean' },
  force: { type: 'boolean' },
  yes: { type: 'boolean' },
  // Repeatable: a run over zones of several production accounts names each (zones.ts).
  'confirm-account': { type: 'string', multiple: true },
  zone: { type: 'string' },
  timeout: { type: 'string' },
  'poll-every': { type: 'string' },
  'expiring-within': { type: 'string' },
  // A write of many targets goes on around those another write holds, listing them (exit 5).
  'skip-busy': { type: 'boolean' },
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
  // TLS without a CA file (require), or named clear text (--unencrypted): issue 50.
  sslmode: { type: 'string' },
  unencrypted: { type: 'boolean' },
  member: { type: 'string' },
  workstation: { type: 'string' },
  // team add-member: the new member's password from standard input, never from argv.
  'password-stdin': { type: 'boolean' },
  // accounts add (accounts.ts): the profile's address, tag, write safety level, colour; where its key goes.
  'base-url': { type: 'string' },
  environment: { type: 'string' },
  safety: { type: 'string' },
  colour: { type: 'string' },
  'read-only': { type: 'boolean' },
  keychain: { type: 'boolean' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>

export type FlagName = keyof typeof FLAGS
type FlagOfType<T> = { [K in FlagName]: (typeof FLAGS)[K]['type'] extends T ? K : never }[FlagName]
export type TextFlag = FlagOfType<'string'>
export type SwitchFlag = FlagOfType<'boolean'>
export type DurationFlag = Extract<TextFlag, 'timeout' | 'poll-every' | 'expiring-within' | 'every'>

/** What every command takes: where the data and the key are, which account, the output's form, help. */
export const COMMON_FLAGS = [
  'account',
  'json',
  'data-dir',
  'help',
  'key-file',
  'key-credential',
  'key-stdin',
  'demo',
] as const satisfies readonly FlagName[]

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
  /** A text flag's value; given more than once, the last. */
  text(name: TextFlag): string | undefined
  /** Every value a text flag was given, in order (--confirm-account A --confirm-account B). */
  all(name: TextFlag): string[]
  on(name: SwitchFlag): boolean
  /** A duration flag in milliseconds (checked when the flags were read), else undefined. */
  ms(name: DurationFlag): number | undefined
}

/**
 * What is wrong with the command line, as the command words it (never the parser's own text,
 * which is English and advises what does not apply here). `flag`: a flag of other commands, whose
 * refusal names them (main.ts).
 */
export type FlagProblem =
  | { key: 'cli.flag.otherCommands'; params: { option: string }; flag: FlagName }
  | { key: 'cli.flag.unknown'; params: { option: string } }
  | { key: 'cli.flag.needsValue'; params: { option: string } }
  | { key: 'cli.flag.valueLikeOption'; params: { option: string; value: string } }
  | { key: 'cli.flag.takesNoValue'; params: { option: string } }
  | { key: 'cli.badDuration'; params: { option: string; value: string } }

export type FlagsRead = { ok: true; flags: Flags; positionals: string[] } | { ok: false; problem: FlagProblem }

const VALIDATION_VALUE = /^[A-Za-z0-9_-]{43}$/
const HELD = '\u0000held-value-'

const isFlagName = (name: string): name is FlagName => Object.hasOwn(FLAGS, name)
const isTextFlag = (name: FlagName): name is TextFlag => FLAGS[name].type === 'string'

/** One option as the parser found it (parseArgs' tokens). */
interface OptionToken {
  name: string
  rawName: string
  value?: string | undefined
  inlineValue?: boolean | undefined
}

/**
 * The first option `allowed` does not permit as written: a flag of other commands or of none, a
 * value missing or given to a switch, or a value that reads as an option (`--account --json`).
 * These are the refusals of parseArgs' strict mode, found here so that each is worded by the command.
 */
function problemOf(options: readonly OptionToken[], allowed: readonly FlagName[]): FlagProblem | undefined {
  for (const o of options) {
    const option = o.rawName
    if (!isFlagName(o.name)) return { key: 'cli.flag.unknown', params: { option } }
    if (!allowed.includes(o.name)) return { key: 'cli.flag.otherCommands', params: { option }, flag: o.name }
    if (!isTextFlag(o.name)) {
      if (o.value !== undefined) return { key: 'cli.flag.takesNoValue', params: { option } }
    } else if (o.value === undefined) return { key: 'cli.flag.needsValue', params: { option } }
    else if (!o.inlineValue && o.value.startsWith('-'))
      return { key: 'cli.flag.valueLikeOption', params: { option, value: o.value } }
  }
  return undefined
}

/**
 * The arguments read with only `allowed` flags known (strictly: any other is refused), each
 * duration checked. Without `allowed`, nothing is refused: that first look finds the command's
 * words and whether --json or --help was asked, even when the strict read of that command then
 * refuses something.
 */
export function readFlags(argv: string[], allowed?: readonly FlagName[]): FlagsRead {
  const names = Object.keys(FLAGS).filter(isFlagName)
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
  // Every flag is known to the parser, so another command's flag takes its value as it would
  // there; which ones this command takes is checked on the tokens.
  const parsed = parseArgs({ args, options: FLAGS, allowPositionals: true, strict: false, tokens: true })
  if (allowed) {
    const problem = problemOf(
      parsed.tokens.flatMap((t) => (t.kind === 'option' ? [t] : [])),
      allowed,
    )
    if (problem) return { ok: false, problem }
  }
  const texts = new Map<TextFlag, string[]>()
  const switches = new Set<SwitchFlag>()
  for (const name of names) {
    if (allowed && !allowed.includes(name)) continue
    const value = parsed.values[name]
    if (isTextFlag(name)) {
      if (typeof value === 'string') texts.set(name, [value])
      else if (Array.isArray(value) && value.length > 0) texts.set(name, value.map(String))
    } else if (value === true) switches.add(name)
  }
  const durations = new Map<DurationFlag, number>()
  // The first look refuses nothing: the command's own read says what is wrong, with its help.
  for (const name of allowed ? DURATION_FLAGS : []) {
    const given = texts.get(name)?.at(-1)
    if (given === undefined) continue
    const ms = durationMs(given)
    if (ms === undefined)
      return { ok: false, problem: { key: 'cli.badDuration', params: { option: `--${name}`, value: given } } }
    durations.set(name, ms)
  }
  return {
    ok: true,
    positionals: parsed.positionals.map((p) =>
      p.startsWith(HELD) ? (heldValues[Number(p.slice(HELD.length))] ?? p) : p,
    ),
    flags: {
      text: (name) => texts.get(name)?.at(-1),
      all: (name) => [...(texts.get(name) ?? [])],
      on: (name) => switches.has(name),
      ms: (name) => durations.get(name),
    },
  }
}
