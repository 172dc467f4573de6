/**
 * Accounts set up from the command line, for a server that never runs the window: `accounts add`,
 * `test`, `remove` and `rename`, through the app's own channels (the same accounts file and
 * keychain entries as the window; the app's door when the app is open).
 *
 * Where the key stays is where it was given (docs/server-setup.md):
 * - a key file, a systemd credential, or standard input: the key stays there. The account is
 *   kept with no key of its own (as the window's "this session only": nothing on disk, nothing in
 *   the keychain), and each command for it is given the same source again (--key-file,
 *   HOSTING_ADMIN_KEY_FILE, the unit's LoadCredential=). This works with no D-Bus at all (cron,
 *   systemd, `env -i`): the keychain is never asked.
 * - typed at the prompt (a terminal, no source given), or any source with --keychain: the key
 *   goes to the keychain, as the window's add form puts it, and commands then need no source.
 *
 * The key is tried with the service before anything is kept: a refusal is told in the words of
 * the window's add form, and nothing is kept.
 */
import {
  ACCOUNT_COLOURS,
  ACCOUNT_ENVIRONMENTS,
  DEFAULT_NS_TYPES,
  DEFAULT_TIMEOUT_MS,
  profileFieldsSchema,
  type AccountView,
  type ProfileFields,
} from '@shared/accounts'
import { keyCheckOutcome } from '@shared/accounts/key-check'
import { WRITE_SAFETY, writeSafetyOf } from '@shared/accounts/write-safety'
import type { ConnectionResult } from '@shared/ipc/contract'
import { SERVER_KIND_PLACEHOLDERS, type ServerKind } from '@shared/service/constants'
import { BadInput, EXIT, Failed, failed, type Context } from './context'
import type { Flags } from './flags'
import type { KeySource } from './key-source'
import { askHidden, askYes, canAsk } from './key-prompt'
import type { Refusal } from './commands'
import { basename } from 'node:path'

const CHOICES = { environment: ACCOUNT_ENVIRONMENTS, safety: WRITE_SAFETY, colour: ACCOUNT_COLOURS } as const
type ChoiceFlag = keyof typeof CHOICES

const choiceOf = <F extends ChoiceFlag>(flags: Flags, flag: F): (typeof CHOICES)[F][number] | undefined => {
  const given = flags.text(flag)
  return CHOICES[flag].find((c) => c === given)
}

/** accounts add's own checks: a name, a base URL, and each choice one of its words. */
function addCheck(flags: Flags, [name]: string[]): Refusal | undefined {
  if (!name) return { key: 'cli.accounts.needsName' }
  if (flags.text('base-url') === undefined) return { key: 'cli.accounts.needsBaseUrl' }
  for (const flag of ['environment', 'safety', 'colour'] as const) {
    const value = flags.text(flag)
    if (value === undefined || choiceOf(flags, flag) !== undefined) continue
    return { key: 'cli.accounts.badChoice', params: { option: `--${flag}`, value, choices: CHOICES[flag].join(', ') } }
  }
  return undefined
}

/** A server kind's path word and name as the window's form leaves them when not typed. */
const kindOf = (k: ServerKind) => ({ ...SERVER_KIND_PLACEHOLDERS[k] })

/** The profile a new account gets: the window's defaults (server kinds, DNS words, time-out) and what was given. */
function fieldsOf(c: Context, name: string, flags: Flags): ProfileFields {
  const environment = choiceOf(flags, 'environment') ?? 'none'
  const parsed = profileFieldsSchema.safeParse({
    name,
    baseUrl: flags.text('base-url'),
    serverKinds: { a: kindOf('a'), b: kindOf('b'), c: kindOf('c') },
    nsTypes: DEFAULT_NS_TYPES,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    colour: choiceOf(flags, 'colour') ?? 'slate',
    environment,
    // As the window's form: the level follows the tag ('name' for production) unless given.
    writeSafety: choiceOf(flags, 'safety') ?? writeSafetyOf({ environment }),
    readOnly: flags.on('read-only'),
  })
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = String(issue?.path[0] ?? '')
  // The base URL's rule as the window's form words it (shared/accounts/base-url.ts); a name too long or empty.
  const code = issue?.message ?? 'field.required'
  throw new BadInput(`${field === 'baseUrl' ? '--base-url' : field}: ${c.say.code(code)}`, code, { field })
}

async function listed(c: Context): Promise<AccountView[]> {
  const r = await c.session.call('accounts.list', {})
  if (!r.ok) throw new Failed(r.error)
  return r.value.accounts.filter((a) => !a.demo)
}

function refuseTakenName(c: Context, accounts: readonly AccountView[], name: string): void {
  if (accounts.some((a) => a.name.trim() === name.trim())) throw BadInput.of(c.say, 'cli.accounts.nameTaken', { name })
}

const KEY_CHECK_LINES = {
  refused: 'accounts.keyCheck.refused',
  address: 'accounts.keyCheck.address',
  unreached: 'accounts.keyCheck.unreached',
  failed: 'accounts.keyCheck.failed',
} as const

/** A key test that did not pass, as the window's add form tells it: what it came to, then the service's words. */
function sayKeyCheck(c: Context, name: string, result: ConnectionResult & { ok: false }): number {
  const { ok: _ok, ...error } = result
  const { kind, code, params, requestId } = error
  if (c.json) c.io.out(JSON.stringify({ ok: false, error: { kind, code, params, requestId } }))
  const outcome = keyCheckOutcome(result)
  c.io.err(c.say.t(KEY_CHECK_LINES[outcome === 'passed' ? 'failed' : outcome], { name }))
  // The token's allowed addresses are what to fix here, not the key (as the window's form says).
  if (outcome === 'address') c.io.err(c.say.t('accounts.keyCheck.addressNext'))
  c.io.err(c.say.error(error))
  return EXIT.failed
}

export interface AddInput {
  name: string
  flags: Flags
  /** The key source the command was given (key-source.ts), read and checked; undefined: none. */
  source: KeySource | undefined
}

/** Where the key of an account added is: the keychain, or the source it was given from (as --json says it). */
type KeyKept =
  | { kept: 'keychain' }
  | { kept: 'source'; from: 'credential'; credential: string }
  | { kept: 'source'; from: 'stdin' }
  | { kept: 'source'; from: 'key-file' | 'environment'; file: string }

function whereKeyIs(source: KeySource | undefined, inKeychain: boolean): KeyKept {
  if (inKeychain || !source) return { kept: 'keychain' }
  if (source.from === 'credential') return { kept: 'source', from: 'credential', credential: basename(source.path) }
  if (source.from === 'stdin') return { kept: 'source', from: 'stdin' }
  return { kept: 'source', from: source.from, file: source.path }
}

/** The line that says where the key is, for the commands that follow. */
function keyLine(c: Context, where: KeyKept): string {
  if (where.kept === 'keychain') return c.say.t('cli.accounts.keyInKeychain')
  if (where.from === 'credential') return c.say.t('cli.accounts.keyInCredential', { credential: where.credential })
  if (where.from === 'stdin') return c.say.t('cli.accounts.keyNotKept')
  return c.say.t('cli.accounts.keyInFile', { file: where.file })
}

export async function addAccount(c: Context, { name, flags, source }: AddInput): Promise<number> {
  // The choices are checked here rather than in the command table, which --help loads without
  // this module (npm run bench -- cli-start); still before the service is asked or anything kept.
  const refusal = addCheck(flags, [name])
  if (refusal) throw BadInput.of(c.say, refusal.key, refusal.params)
  const fields = fieldsOf(c, name, flags)
  refuseTakenName(c, await listed(c), fields.name)
  let apiKey = source?.key
  const typed = apiKey === undefined
  if (typed) {
    if (!canAsk()) throw BadInput.of(c.say, 'cli.accounts.needsKey')
    apiKey = await askHidden(c.say.t('cli.accounts.keyPrompt', { name: fields.name }), (text) => c.io.err(text))
    if (!apiKey?.trim()) throw BadInput.of(c.say, 'cli.accounts.noKeyTyped')
  }
  const key = apiKey ?? ''
  const tested = await c.session.call('accounts.testKey', { fields, apiKey: key })
  if (!tested.ok) throw new Failed(tested.error)
  if (!tested.value.ok) return sayKeyCheck(c, fields.name, tested.value)
  // A key typed at the prompt has nowhere else to stay; a source's key goes to the keychain only when asked.
  const inKeychain = typed || flags.on('keychain')
  const storage = inKeychain ? 'keychain' : 'session'
  const created = await c.session.call('accounts.create', { fields, apiKey: key, storage })
  if (!created.ok) {
    if (created.error.code === 'keychain.noSecretService') throw BadInput.of(c.say, 'cli.accounts.noKeychain')
    throw new Failed(created.error)
  }
  const account = created.value
  const where = whereKeyIs(source, inKeychain)
  const { id, environment, readOnly, colour } = account
  const view = { id, name: account.name, environment, writeSafety: writeSafetyOf(account), readOnly, colour }
  if (c.json) c.io.out(JSON.stringify({ ok: true, account: view, key: where }))
  else {
    c.io.out(c.say.t('cli.accounts.added', { name: account.name, id: account.id }))
    c.io.out(keyLine(c, where))
  }
  return EXIT.done
}

/** accounts test <name>: the window's Test connection, with the key the account's commands use. */
export async function testAccount(c: Context, account: AccountView): Promise<number> {
  const r = await c.session.call('accounts.testConnection', { id: account.id })
  if (!r.ok) throw new Failed(r.error)
  if (!r.value.ok) return sayKeyCheck(c, account.name, r.value)
  if (c.json) c.io.out(JSON.stringify({ ok: true, account: { id: account.id, name: account.name } }))
  else c.io.out(c.say.t('accounts.keyCheck.passed', { name: account.name }))
  return EXIT.done
}

/**
 * accounts remove <name>: confirmed as the window confirms it (asked at a terminal; --yes from a
 * script). The account's keychain entry goes with it; a key file or credential is the user's and stays.
 * Where the keychain cannot be reached, neither goes (main's accounts.remove: keychain.keyStays).
 */
export async function removeAccount(c: Context, account: AccountView, yes: boolean): Promise<number> {
  if (!yes) {
    if (!canAsk()) throw BadInput.of(c.say, 'cli.accounts.removeNeedsYes', { name: account.name })
    const question = `${c.say.t('accounts.removeConfirm', { name: account.name })} ${c.say.t('cli.accounts.yesNo')}`
    if (!(await askYes(question, c.say.t('cli.accounts.yesWords').split('|')))) {
      c.io.err(c.say.t('cli.accounts.notRemoved', { name: account.name }))
      return EXIT.badInput
    }
  }
  const r = await c.session.call('accounts.remove', { id: account.id })
  if (!r.ok && r.error.code === 'keychain.keyStays') {
    // Nothing removed (exit 1): the keychain is out of reach here (env -i, cron, ssh), so the
    // command says where the key is and where it can be taken out with the account.
    const code = failed(c, r.error)
    c.io.err(c.say.t('cli.accounts.keyStaysHow', { name: account.name }))
    return code
  }
  if (!r.ok) throw new Failed(r.error)
  if (c.json) c.io.out(JSON.stringify({ ok: true, removed: { id: account.id, name: account.name } }))
  else c.io.out(c.say.t('cli.accounts.removed', { name: account.name }))
  return EXIT.done
}

/** accounts rename <old> <new>: only the name changes; the key stays where it is. */
export async function renameAccount(c: Context, account: AccountView, newName: string): Promise<number> {
  const others = (await listed(c)).filter((a) => a.id !== account.id)
  const fields = profileFieldsSchema.safeParse({ ...account, name: newName })
  if (!fields.success) {
    const code = fields.error.issues[0]?.message ?? 'field.required'
    throw new BadInput(c.say.code(code), code)
  }
  refuseTakenName(c, others, fields.data.name)
  const r = await c.session.call('accounts.update', { id: account.id, fields: fields.data })
  if (!r.ok) throw new Failed(r.error)
  if (c.json) c.io.out(JSON.stringify({ ok: true, account: { id: r.value.id, name: r.value.name, was: account.name } }))
  else c.io.out(c.say.t('cli.accounts.renamed', { was: account.name, name: r.value.name }))
  return EXIT.done
}
