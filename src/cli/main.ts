/**
 * hosting-admin: the app's accounts, keys, safety and history from a script. The commands, their
 * flags, checks and help are in the command table (commands.ts); this reads the command line,
 * opens the session and runs the command named. `hosting-admin --help` lists them all,
 * `hosting-admin <command> --help` describes one.
 *
 * Common: --account <name or id> (else the app's active account), --json, --data-dir <folder>,
 * --demo (the built-in demo, only when asked), --key-file <path> or --key-credential <name> (the
 * key without the keychain: key-source.ts; never the key itself). Progress and messages go to
 * stderr, results to stdout; with --json, stdout is one JSON object, a refusal's included.
 * Exit codes: 0 done, 1 failed, 2 bad input, 3 outcome unknown, 4 the zone differs (dns check), 5 done but
 * for the targets another write held, left out (--skip-busy).
 *
 * The session (the app's services) and each command's module load only once a command runs:
 * `--help` and a refusal read the table alone (issue 52 point 7, npm run bench -- cli-start).
 */
import type { AccountView } from '@shared/accounts'
import { escapeHidden } from '@shared/dns/hidden-characters'
import { dataDirOf } from './data-dir'
import { BadInput, chooseAccount, EXIT, Failed, failed, type Context, type Io } from './context'
import { ACME_TIMEOUT_MS, commandOf, commandsOfGroup, commandsTaking, type CliCommand } from './commands'
import { COMMON_FLAGS, readFlags } from './flags'
import { keySourceOf } from './key-source'
import { keyFromStdin } from './key-stdin'
import { loadTexts } from './load-texts'
import { localeOf, type Texts } from './text-core'

export { type Io }
export { durationMs } from './flags'

/** A command's help: its own text, then the options every command takes. */
export const helpOf = (say: Texts, command: CliCommand): string =>
  `${say.t(command.help)}\n\n${say.t('cli.help.common')}`

export async function run(argv: string[], given: Io): Promise<number> {
  // Nothing the command prints moves the cursor or redraws a line: a file's name, the service's
  // words or a zone's text with a control character in it are printed with it escaped.
  const io: Io = {
    ...given,
    out: (text) => given.out(escapeHidden(text)),
    err: (text) => given.err(escapeHidden(text)),
  }
  const say = await loadTexts(localeOf(io.env))
  // A first look knowing every flag: the command's words, and whether --json or --help was asked.
  const look = readFlags(argv)
  const positionals = look.ok ? look.positionals : []
  const json = look.ok && look.flags.on('json')
  /** Exit 2: the reason on stderr and, with --json, as the one JSON object on stdout. */
  const refuse = (r: BadInput, after?: string) => {
    if (json)
      io.out(
        JSON.stringify({ ok: false, error: { kind: 'bad-input', code: r.code, params: r.params, message: r.text } }),
      )
    io.err(r.text)
    if (after !== undefined) io.err(after)
    return EXIT.badInput
  }
  const help = look.ok && look.flags.on('help')
  const [group] = positionals
  if (!group) {
    // With --json and no command, stdout is still the one JSON object; the overview goes to stderr.
    if (json && !help) return refuse(BadInput.of(say, 'cli.needsCommand'), say.t('cli.usage'))
    io.out(say.t('cli.usage'))
    return help ? EXIT.done : EXIT.badInput
  }
  const found = commandOf(positionals)
  if (help) {
    const described = found ? [found.command] : commandsOfGroup(group)
    io.out(described.length > 0 ? described.map((c) => helpOf(say, c)).join('\n\n') : say.t('cli.usage'))
    return EXIT.done
  }
  if (!found)
    return refuse(
      BadInput.of(say, 'cli.unknownCommand', { command: positionals.slice(0, 2).join(' ') }),
      say.t('cli.usage'),
    )
  const { command } = found
  const read = readFlags(argv, [...COMMON_FLAGS, ...command.flags])
  if (!read.ok) {
    const { problem } = read
    // Another command's flag: this command says it takes none such, and whose it is.
    const params =
      problem.key === 'cli.flag.otherCommands'
        ? { ...problem.params, command: command.words, commands: commandsTaking(problem.flag).join(', ') }
        : problem.params
    return refuse(BadInput.of(say, problem.key, params), helpOf(say, command))
  }
  const flags = read.flags
  const args = read.positionals.slice(found.words)
  const refusal = command.check?.(flags, args)
  if (refusal) return refuse(BadInput.of(say, refusal.key, refusal.params))

  const dataDir = dataDirOf(flags.text('data-dir'), io.env)
  if (command.standalone) return await command.standalone({ flags, args, dataDir, io, say })
  // Read and checked even when the app's door then takes the calls (the app uses its own keys):
  // a key file the command would refuse is refused whether the app runs or not. The demo has its own.
  const demo = flags.on('demo')
  const keys = demo
    ? undefined
    : await keySourceOf({
        keyFile: flags.text('key-file'),
        credential: flags.text('key-credential'),
        stdin: flags.on('key-stdin') ? () => keyFromStdin() : undefined,
        env: io.env,
        me: process.getuid?.(),
      })
  if (keys && !keys.ok) return refuse(BadInput.of(say, keys.problem.code, keys.problem.params))
  const quick = await command.quick?.({ flags, args, dataDir, io, say })
  if (quick !== undefined) return quick
  const [{ openSession }, { KeySourceStore }, { acmeLockWait }] = await Promise.all([
    import('./session'),
    import('./key-source-store'),
    import('./acme'),
  ])
  const keySource = keys?.source
  // A command that keeps the key it is given into the keychain (accounts add --keychain) needs the keychain itself.
  const toKeychain = command.keepsKey === true && flags.on('keychain')
  const secrets = keySource && !toKeychain ? new KeySourceStore(keySource.key) : undefined
  // Beside the built command (out/main/cli.js): the session's module is a chunk of its own now, in chunks/.
  const storeWorkerUrl = new URL('./store-worker.js', import.meta.url)
  const opened = await openSession(dataDir, {
    onProgress: (p) => io.err(say.t('cli.progress', { done: p.loadedItems, total: p.expectedItems ?? '?' })),
    ...(secrets ? { secrets } : {}),
    ...(command.hook ? { lockWait: acmeLockWait(io, say, flags.ms('timeout') ?? ACME_TIMEOUT_MS, json) } : {}),
    storeWorkerUrl,
  })
  if (!opened.ok) {
    const { kind, code, params } = opened.error
    if (json) io.out(JSON.stringify({ ok: false, error: { kind, code, params } }))
    io.err(say.error(opened.error))
    return EXIT.failed
  }
  const c: Context = { session: opened.session, say, io, json, dataDir, storeWorkerUrl }
  // The ACME hooks say it on stdout: certbot shows a successful hook's stderr as an error.
  if (opened.session.viaApp && !command.hook) io.err(say.t('cli.viaApp'))
  let served: AccountView | undefined
  const account = async (name?: string) => {
    const chosen = await chooseAccount(c, name ?? flags.text('account'), demo)
    // A key file or credential serves one account: a zone set naming two cannot share it.
    if (secrets && served && served.id !== chosen.id) {
      throw BadInput.of(say, 'cli.zones.oneAccountPerKey', { names: `${served.name}, ${chosen.name}` })
    }
    served = chosen
    secrets?.serveFor(chosen.id)
    return chosen
  }
  const accounts = async () => {
    if (demo || secrets || flags.text('account') !== undefined) return [await account()]
    const r = await c.session.call('accounts.list', {})
    if (!r.ok) throw new Failed(r.error)
    return r.value.accounts.filter((a) => !a.demo)
  }
  try {
    return await command.run(c, { flags, args, account, accounts, keySource: command.keepsKey ? keySource : undefined })
  } catch (err) {
    if (err instanceof BadInput) return refuse(err)
    if (err instanceof Failed) return failed(c, err.error)
    throw err
  } finally {
    await opened.session.close()
  }
}
