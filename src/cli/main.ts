/**
 * hosting-admin: the app's accounts, keys, safety and history from a script.
 *
 *   hosting-admin accounts
 *   hosting-admin dns export <domain> [--bind]
 *   hosting-admin dns plan <domain> <file>
 *   hosting-admin dns check <domain> <file>        exits 4 when the live zone differs
 *   hosting-admin dns apply <domain> <file> [--force] [--yes] [--confirm-account <name>]
 *
 * Common: --account <name or id> (else the app's active account), --json, --data-dir <folder>,
 * --format records|bind. Progress and messages go to stderr, results to stdout. Exit codes: 0
 * done, 1 failed, 2 bad input, 3 outcome unknown, 4 the zone differs (dns check).
 */
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import type { AccountView } from '../shared/accounts'
import type { ErrorData } from '../shared/errors'
import type { Plan } from '../shared/dns/plan'
import { plan as planOf, isEmptyPlan } from '../shared/dns/plan'
import { parse } from '../shared/dns/records'
import { safetyOfPlan } from '../shared/dns/zone-safety'
import { dataDirOf } from './data-dir'
import { openSession, type Session } from './session'
import { localeOf, texts, type Texts } from './text'
import { formatOf, readZoneFile, zoneAsBind, type ZoneFormat } from './zone-file'

export const EXIT = { done: 0, failed: 1, badInput: 2, unknown: 3, differs: 4 } as const

export interface Io {
  out(text: string): void
  err(text: string): void
  env: NodeJS.ProcessEnv
}

/** A refusal of the command line itself (exit 2), worded from the catalogue. */
class BadInput extends Error {
  constructor(readonly text: string) {
    super(text)
  }
}

const OPTIONS = {
  account: { type: 'string' },
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
  format: { type: 'string' },
  bind: { type: 'boolean' },
  force: { type: 'boolean' },
  yes: { type: 'boolean' },
  'confirm-account': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

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
  const [group, verb, ...rest] = args.positionals
  if (args.values.help || !group) {
    io.out(say.t('cli.usage'))
    return args.values.help ? EXIT.done : EXIT.badInput
  }
  const format = args.values.format
  if (format !== undefined && format !== 'records' && format !== 'bind') {
    io.err(say.t('cli.badFormat', { format }))
    return EXIT.badInput
  }
  const command = group === 'accounts' ? 'accounts' : `${group} ${verb ?? ''}`
  if (!['accounts', 'dns export', 'dns plan', 'dns check', 'dns apply'].includes(command)) {
    io.err(say.t('cli.unknownCommand', { command: command.trim() }))
    io.err(say.t('cli.usage'))
    return EXIT.badInput
  }
  const opened = await openSession(dataDirOf(args.values['data-dir'], io.env), { onProgress: (p) => io.err(say.t('cli.progress', { done: p.loadedItems, total: p.expectedItems ?? '?' })) })
  if (!opened.ok) {
    io.err(say.error(opened.error))
    return EXIT.failed
  }
  const session = opened.session
  const c: Context = { session, say, io, json: args.values.json === true }
  try {
    if (command === 'accounts') return await listAccounts(c)
    const account = await chooseAccount(c, args.values.account)
    const [domain, file] = rest
    if (!domain) throw new BadInput(say.t('cli.needsDomain'))
    if (command === 'dns export') return await exportZone(c, account, domain, args.values.bind === true || format === 'bind')
    if (!file) throw new BadInput(say.t('cli.needsFile'))
    const asked: ZoneFormat | undefined = format === 'records' || format === 'bind' ? format : undefined
    return await zoneFromFile(c, account, domain, file, asked, command === 'dns apply' ? 'apply' : command === 'dns check' ? 'check' : 'plan', {
      force: args.values.force === true,
      yes: args.values.yes === true,
      typedName: args.values['confirm-account'],
    })
  } catch (err) {
    if (err instanceof BadInput) {
      io.err(err.text)
      return EXIT.badInput
    }
    if (err instanceof Failed) return failed(c, err.error)
    throw err
  } finally {
    await session.close()
  }
}

interface Context {
  session: Session
  say: Texts
  io: Io
  json: boolean
}

/** A call's value, or the command ends with its error (exit 1). */
class Failed extends Error {
  constructor(readonly error: ErrorData) {
    super(error.code)
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

function failed(c: Context, error: ErrorData): number {
  if (c.json) c.io.out(JSON.stringify({ ok: false, error: { kind: error.kind, code: error.code, params: error.params, requestId: error.requestId } }))
  c.io.err(c.say.error(error))
  return error.kind === 'outcome-unknown' ? EXIT.unknown : EXIT.failed
}

async function chooseAccount(c: Context, wanted: string | undefined): Promise<AccountView> {
  const r = await c.session.call('accounts.list', {})
  if (!r.ok) throw new Failed(r.error)
  const all = r.value.accounts
  const found = wanted === undefined ? all.find((a) => a.id === r.value.activeId) : (all.find((a) => a.name === wanted) ?? all.find((a) => a.id === wanted))
  if (!found) throw new BadInput(c.say.t('cli.noAccount', { name: wanted ?? '', names: all.map((a) => a.name).join(', ') }))
  return found
}

async function readLive(c: Context, account: AccountView, domain: string) {
  const r = await c.session.call('domains.dns.get', { accountId: account.id, domain })
  if (!r.ok) throw new Failed(r.error)
  return r.value
}

async function exportZone(c: Context, account: AccountView, domain: string, bind: boolean): Promise<number> {
  const live = await readLive(c, account, domain)
  if (!bind) {
    c.io.out(c.json ? JSON.stringify({ domain, records: live.records, ttl: live.ttl, ns_type: live.ns_type }) : live.records)
    return EXIT.done
  }
  const exported = zoneAsBind(live.records, domain, live.ttl)
  for (const n of exported.notes) c.io.err(c.say.code(n.code, n.params))
  c.io.out(c.json ? JSON.stringify({ domain, bind: exported.text }) : exported.text)
  return EXIT.done
}

/** The plan as lines: + added, ~ changed, − removed, and the zone's TTL when it changes. */
function planLines(c: Context, p: Plan, ttl: { from: number | undefined; to: number | undefined }): string[] {
  const rec = (r: { type: string; host: string; value: string }) => `${r.type.toUpperCase()} ${r.host} ${r.value}`
  return [
    ...(ttl.to !== undefined && ttl.to !== ttl.from ? [`~ ${c.say.t('cli.planTtl', { from: ttl.from ?? '-', to: ttl.to })}`] : []),
    ...p.added.map((r) => `+ ${c.say.t('dnsEditor.planAdd')} ${rec(r)}`),
    ...p.changed.map((x) => `~ ${c.say.t('dnsEditor.planChange')} ${x.from.type.toUpperCase()} ${x.from.host}: ${x.from.value} → ${x.to.value}`),
    ...p.removed.map((r) => `- ${c.say.t('dnsEditor.planRemove')} ${rec(r)}`),
    ...p.rawRemoved.map((l) => `- ${c.say.t('dnsEditor.planRemoveLine')} ${l}`),
    ...p.rawAdded.map((l) => `+ ${c.say.t('dnsEditor.planAddLine')} ${l}`),
  ]
}

async function zoneFromFile(
  c: Context,
  account: AccountView,
  domain: string,
  file: string,
  asked: ZoneFormat | undefined,
  mode: 'plan' | 'check' | 'apply',
  opts: { force: boolean; yes: boolean; typedName: string | undefined },
): Promise<number> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw new BadInput(c.say.t('cli.fileUnreadable', { file, reason: typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown' }))
  }
  const live = await readLive(c, account, domain)
  const wanted = readZoneFile(text, domain, formatOf(text, asked), live.ttl)
  for (const n of wanted.notes) c.io.err(c.say.code(n.code, n.params))
  if (wanted.issues.length > 0) {
    const lines = wanted.issues.map((i) => c.say.t('cli.recordIssue', { line: i.index + 1, text: c.say.code(i.code, i.params) }))
    throw new BadInput([c.say.t('cli.invalidRecords', { file }), ...lines].join('\n'))
  }
  const before = parse(live.records)
  const p = planOf(before, wanted.rows)
  const ttlChanges = wanted.ttl !== undefined && wanted.ttl !== live.ttl
  const same = isEmptyPlan(p) && !ttlChanges
  const safety = safetyOfPlan(p, before, domain)
  const lines = planLines(c, p, { from: live.ttl, to: wanted.ttl })
  const summary = { domain, account: account.name, changes: lines.length, changed: safety.changed, total: safety.total, overRule: safety.needsOwnConfirmation, plan: lines }
  if (mode !== 'apply' || same) {
    if (c.json) c.io.out(JSON.stringify({ ...summary, same }))
    else c.io.out(same ? c.say.t('cli.noChange', { domain }) : lines.join('\n'))
    if (mode === 'check') return same ? EXIT.done : EXIT.differs
    return EXIT.done
  }
  if (!c.json) c.io.err(lines.join('\n'))
  if (safety.needsOwnConfirmation && !opts.force) throw new BadInput(c.say.t('cli.overRule', { changed: safety.changed, total: safety.total }))
  // Guarded by the zone the plan was made from: main reads it again just before the save and sends nothing if it moved.
  const prepared = await c.session.call('jobs.prepare', {
    accountId: account.id,
    operation: 'domains.dns.set',
    items: [
      {
        params: { domain, records: wanted.records, ns_type: live.ns_type, ...(wanted.ttl !== undefined ? { ttl: wanted.ttl } : {}) },
        label: domain,
        guard: { records: live.records, ...(live.ttl !== undefined ? { ttl: live.ttl } : {}), ns_type: live.ns_type },
        ...(safety.needsOwnConfirmation ? { overRule: true } : {}),
      },
    ],
    purpose: 'cli',
  })
  if (!prepared.ok) return failed(c, prepared.error)
  const job = prepared.value.job
  const discard = () => c.session.call('jobs.discard', { jobId: job.id })
  // The account's name typed is the stronger confirmation and stands for --yes; main checks it.
  if (job.confirmByName && opts.typedName === undefined) {
    await discard()
    throw new BadInput(c.say.t('cli.needsName', { account: account.name }))
  }
  if (job.confirm && !job.confirmByName && !opts.yes) {
    await discard()
    throw new BadInput(c.say.t('cli.needsYes', { account: account.name }))
  }
  const started = await c.session.call('jobs.start', { jobId: job.id, ...(prepared.value.token ? { token: prepared.value.token } : {}), ...(job.confirmByName ? { accountName: opts.typedName } : {}) })
  if (!started.ok) {
    await discard()
    return failed(c, started.error)
  }
  const ended = await c.session.ended(started.value)
  const item = ended.items[0]
  if (item?.state === 'done') {
    if (c.json) c.io.out(JSON.stringify({ ...summary, ok: true, requestId: item.requestId }))
    else c.io.out(c.say.t('cli.saved', { domain, count: summary.changes }))
    return EXIT.done
  }
  const error: ErrorData =
    item?.state === 'unknown'
      ? { kind: 'outcome-unknown', code: 'job.outcomeUnknown', params: { label: domain }, requestId: item.requestId }
      : (item?.error ?? { kind: 'internal', code: 'job.interrupted' })
  return failed(c, error)
}

