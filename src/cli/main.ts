/**
 * hosting-admin: the app's accounts, keys, safety and history from a script.
 *
 *   hosting-admin accounts
 *   hosting-admin dns export <domain> [--bind]
 *   hosting-admin dns plan <domain> <file>
 *   hosting-admin dns check <domain> <file>        exits 4 when the live zone differs
 *   hosting-admin dns apply <domain> <file> [--force] [--yes] [--confirm-account <name>]
 *   hosting-admin dns served <domain>|--all       exits 4 when a nameserver serves other than what is saved
 *   hosting-admin acme auth | acme cleanup         certbot's manual hooks (CERTBOT_DOMAIN, CERTBOT_VALIDATION)
 *   hosting-admin acme present|cleanup <fqdn> <value>   lego's exec provider
 *   hosting-admin renew --expiring-within 30d [--years 1] [--yes] [--confirm-account <name>]
 *   hosting-admin ddns update <domain> [--host h] [--ip a.b.c.d | --detect] [--every 5m]
 *
 * Common: --account <name or id> (else the app's active account), --json, --data-dir <folder>,
 * --format records|bind, --demo (the built-in demo, only when asked), --key-file <path> or
 * --key-credential <name> (the key without the keychain: key-source.ts; never the key itself). Progress and messages go to stderr, results to stdout. Exit codes: 0
 * done, 1 failed, 2 bad input, 3 outcome unknown, 4 the zone differs (dns check).
 */
import { parseArgs } from 'node:util'
import { dataDirOf } from './data-dir'
import { acme, acmeRequestOf } from './acme'
import { BadInput, chooseAccount, EXIT, Failed, failed, type Context, type Io } from './context'
import { exportZone, zoneFromFile } from './dns-files'
import { served } from './served'
import { renew } from './renew'
import { ddnsOptionsOf, ddnsTargetOf, updateEvery, updateOnce } from './ddns'
import { openSession } from './session'
import { keySourceOf } from './key-source'
import { KeySourceStore } from './key-source-store'
import { localeOf, texts } from './text'
import type { ZoneFormat } from './zone-file'

export { type Io }

const OPTIONS = {
  account: { type: 'string' },
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
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
  help: { type: 'boolean', short: 'h' },
  // Where the key is when no keychain is there (cron, systemd): key-source.ts. No option takes the key itself.
  'key-file': { type: 'string' },
  'key-credential': { type: 'string' },
  demo: { type: 'boolean' },
  offline: { type: 'boolean' },
  all: { type: 'boolean' },
} as const

const COMMANDS = ['accounts', 'dns export', 'dns plan', 'dns check', 'dns apply', 'dns served', 'acme auth', 'acme present', 'acme cleanup', 'renew', 'ddns update'] as const
type Command = (typeof COMMANDS)[number]
const isCommand = (s: string): s is Command => (COMMANDS as readonly string[]).includes(s)

/** A duration as scripts write it: 90s, 5m, 2h, 30d, 500ms, or plain seconds. */
export function durationMs(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim())
  if (!m) return undefined
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 's'] ?? 1000
  return Number(m[1]) * unit
}

export async function run(argv: string[], io: Io): Promise<number> {
  const say = texts(localeOf(io.env))
  let args: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>
  try {
    args = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (err) {
    io.err(say.t('cli.badArguments', { reason: err instanceof Error ? err.message : String(err) }))
    io.err(say.t('cli.usage'))
    return EXIT.badInput
  }
  const v = args.values
  const [group, verb, ...rest] = args.positionals
  if (v.help || !group) {
    io.out(say.t('cli.usage'))
    return v.help ? EXIT.done : EXIT.badInput
  }
  const bad = (text: string) => {
    io.err(text)
    return EXIT.badInput
  }
  if (v.format !== undefined && v.format !== 'records' && v.format !== 'bind') return bad(say.t('cli.badFormat', { format: v.format }))
  const command = group === 'accounts' || group === 'renew' ? group : `${group} ${verb ?? ''}`.trim()
  if (!isCommand(command)) {
    io.err(say.t('cli.unknownCommand', { command }))
    return bad(say.t('cli.usage'))
  }
  const durations: Record<'timeout' | 'poll-every' | 'expiring-within' | 'every', number | undefined> = { timeout: 300_000, 'poll-every': 5000, 'expiring-within': undefined, every: undefined }
  for (const name of ['timeout', 'poll-every', 'expiring-within', 'every'] as const) {
    const given = v[name]
    if (given === undefined) continue
    const ms = durationMs(given)
    if (ms === undefined) return bad(say.t('cli.badDuration', { option: `--${name}`, value: given }))
    durations[name] = ms
  }
  const years = v.years === undefined ? 1 : Number(v.years)
  if (!Number.isInteger(years) || years < 1 || years > 9) return bad(say.t('cli.badYears', { value: v.years ?? '' }))
  if (command === 'renew' && durations['expiring-within'] === undefined) return bad(say.t('cli.renew.needsWithin'))

  const dataDir = dataDirOf(v['data-dir'], io.env)
  // Read and checked even when the app's door then takes the calls (the app uses its own keys):
  // a key file the command would refuse is refused whether the app runs or not. The demo has its own.
  const demo = v.demo === true
  const found = demo ? undefined : await keySourceOf({ keyFile: v['key-file'], credential: v['key-credential'], env: io.env, me: process.getuid?.() })
  if (found && !found.ok) return bad(say.t(found.problem.code, found.problem.params))
  const secrets = found?.source ? new KeySourceStore(found.source.key) : undefined
  const opened = await openSession(dataDir, {
    onProgress: (p) => io.err(say.t('cli.progress', { done: p.loadedItems, total: p.expectedItems ?? '?' })),
    ...(secrets ? { secrets } : {}),
  })
  if (!opened.ok) {
    io.err(say.error(opened.error))
    return EXIT.failed
  }
  const c: Context = { session: opened.session, say, io, json: v.json === true, dataDir }
  if (opened.session.viaApp) io.err(say.t('cli.viaApp'))
  const confirmation = { yes: v.yes === true, typedName: v['confirm-account'] }
  try {
    if (command === 'accounts') return await listAccounts(c)
    const account = await chooseAccount(c, v.account, demo)
    secrets?.serveFor(account.id)
    if (command === 'renew') return await renew(c, account, { ...confirmation, withinDays: (durations['expiring-within'] ?? 0) / 86_400_000, years, now: new Date() })
    if (group === 'acme') {
      const request = acmeRequestOf(c, verb, rest)
      return await acme(c, account, request, { ...confirmation, zone: v.zone, force: v.force === true, timeoutMs: durations.timeout ?? 300_000, intervalMs: durations['poll-every'] ?? 5000 })
    }
    const [domain, file] = rest
    if (command === 'dns served') {
      if (!domain && v.all !== true) throw new BadInput(say.t('cli.needsDomain'))
      return await served(c, account, v.all === true ? undefined : domain)
    }
    if (!domain) throw new BadInput(say.t('cli.needsDomain'))
    if (command === 'ddns update') {
      const options = ddnsOptionsOf(c, v, durations.every)
      // The update address is shared by every router of the service's users: no faster than a minute.
      if (options.everyMs !== undefined && options.everyMs < 60_000) throw new BadInput(say.t('cli.ddns.tooOften'))
      const target = await ddnsTargetOf(c, account, domain)
      if (options.everyMs === undefined) return await updateOnce(c, target, options)
      // A running updater leaves the data folder to the app: it holds only the password, in memory.
      await opened.session.close()
      return await updateEvery(c, target, { ...options, everyMs: options.everyMs })
    }
    if (command === 'dns export') return await exportZone(c, account, domain, v.bind === true || v.format === 'bind')
    if (!file) throw new BadInput(say.t('cli.needsFile'))
    const asked: ZoneFormat | undefined = v.format === 'records' || v.format === 'bind' ? v.format : undefined
    const mode = command === 'dns apply' ? 'apply' : command === 'dns check' ? 'check' : 'plan'
    return await zoneFromFile(c, account, domain, file, asked, mode, { ...confirmation, force: v.force === true, offline: v.offline === true })
  } catch (err) {
    if (err instanceof BadInput) return bad(err.text)
    if (err instanceof Failed) return failed(c, err.error)
    throw err
  } finally {
    await opened.session.close()
  }
}

async function listAccounts(c: Context): Promise<number> {
  const r = await c.session.call('accounts.list', {})
  if (!r.ok) return failed(c, r.error)
  const rows = r.value.accounts.map((a) => ({ id: a.id, name: a.name, environment: a.environment, readOnly: a.readOnly, active: a.id === r.value.activeId }))
  if (c.json) c.io.out(JSON.stringify({ accounts: rows }))
  else for (const a of rows) c.io.out(`${a.active ? '*' : ' '} ${a.name}\t${a.environment}${a.readOnly ? '\tread-only' : ''}\t${a.id}`)
  return EXIT.done
}
