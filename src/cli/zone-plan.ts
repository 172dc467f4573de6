/**
 * One zone file planned against its live zone: the file read and checked, the plan, the window's
 * warnings, the 30 % rule and the health findings. `dns plan|check|apply` of one zone
 * (dns-files.ts) and of many (zones.ts) both make their plans here, so a zone is judged alike
 * whichever way it is asked.
 */
import { readFile } from 'node:fs/promises'
import type { AccountView } from '@shared/accounts'
import type { HealthFinding } from '@shared/dns/health/rules'
import type { Plan } from '@shared/dns/plan'
import { plan as planOf, isEmptyPlan } from '@shared/dns/plan'
import { parse, serialiseRow, type Row } from '@shared/dns/records'
import { LOWEST_KEPT_TTL, warnRows } from '@shared/dns/validate'
import { safetyOfPlan, type ZoneSafety } from '@shared/dns/zone-safety'
import { BadInput, Failed, readZone, type Context } from './context'
import { healthOfPlan } from './health'
import { formatOf, readZoneFile, type ZoneFormat, type ZoneFromFile } from './zone-file'

/**
 * The domain's nameservers (a BIND file's apex NS), when the account holds it as a domain; a free
 * DNS zone is not one, and has none to give.
 */
export async function nameserversOf(c: Context, account: AccountView, domain: string): Promise<string[] | undefined> {
  const r = await c.session.call('domains.get', { accountId: account.id, domain })
  if (r.ok) return r.value.ns
  if (['bad-request', 'not-found', 'validation'].includes(r.error.kind)) return undefined
  throw new Failed(r.error)
}

/** A zone file's text; one that cannot be read is bad input, named with the system's reason. */
export async function readZoneText(c: Context, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (err) {
    const reason = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown'
    throw BadInput.of(c.say, 'cli.fileUnreadable', { file, reason })
  }
}

/**
 * What the window warns of before a save, worded by its catalogue: a TTL the service keeps as
 * 3600, comment lines it drops, MX and CNAME targets it completes with the zone, duplicates, a
 * second SPF record, lines it cannot place that the zone already held.
 */
function beforeSaveWarnings(c: Context, rows: Row[], ttl: number | undefined, before: Row[]): string[] {
  const kept = new Set(before.map(serialiseRow))
  const recordText = (i: number) => {
    const r = rows[i]
    return r === undefined ? '' : r.kind === 'raw' ? r.text.trim() : `${r.type.toUpperCase()} ${r.host} ${r.value}`
  }
  const comments = rows.filter((r) => r.kind === 'raw' && r.reason === 'comment').length
  return [
    ...(ttl !== undefined && ttl < LOWEST_KEPT_TTL ? [c.say.t('dnsEditor.lowTtlWarning')] : []),
    ...(comments > 0 ? [c.say.t('dnsEditor.commentsWarning', { count: comments })] : []),
    ...warnRows(rows, { kept }).map((w) => `${recordText(w.index)}: ${c.say.code(w.code, w.params)}`),
  ]
}

/** The plan as lines: + added, ~ changed, - removed, and the zone's TTL when it changes. */
export function planLines(c: Context, p: Plan, ttl: { from: number | undefined; to: number | undefined }): string[] {
  const rec = (r: { type: string; host: string; value: string }) => `${r.type.toUpperCase()} ${r.host} ${r.value}`
  return [
    ...(ttl.to !== undefined && ttl.to !== ttl.from
      ? [`~ ${c.say.t('cli.planTtl', { from: ttl.from ?? '-', to: ttl.to })}`]
      : []),
    ...p.added.map((r) => `+ ${c.say.t('dnsEditor.planAdd')} ${rec(r)}`),
    ...p.changed.map((x) => {
      const what = `${x.from.type.toUpperCase()} ${x.from.host}: ${x.from.value} → ${x.to.value}`
      return `~ ${c.say.t('dnsEditor.planChange')} ${what}`
    }),
    ...p.removed.map((r) => `- ${c.say.t('dnsEditor.planRemove')} ${rec(r)}`),
    ...p.rawRemoved.map((l) => `- ${c.say.t('dnsEditor.planRemoveLine')} ${l}`),
    ...p.rawAdded.map((l) => `+ ${c.say.t('dnsEditor.planAddLine')} ${l}`),
  ]
}

export type LiveZoneRead = Awaited<ReturnType<typeof readZone>>

/** A zone's plan, with what its save needs (the file as read, the live zone it was planned from). */
export interface ZonePlan {
  domain: string
  account: AccountView
  file: { text: string; format: ZoneFormat; nameservers: string[] | undefined }
  live: LiveZoneRead
  wanted: ZoneFromFile
  lines: string[]
  warnings: string[]
  same: boolean
  safety: ZoneSafety
  health: HealthFinding[]
  /** The plan as --json says it (with `same` or the save's outcome added by the caller). */
  summary: {
    domain: string
    account: string
    changes: number
    changed: number
    total: number
    overRule: boolean
    plan: string[]
    health: HealthFinding[]
    warnings?: string[]
  }
}

/**
 * Reads the live zone and plans the file against it. What the BIND reading reports goes to
 * `onNote` as it comes; records the service would refuse are bad input, naming the file and each
 * record; nothing is sent.
 */
export async function planZone(
  c: Context,
  account: AccountView,
  domain: string,
  source: { file: string; text: string; asked: ZoneFormat | undefined },
  opts: { offline: boolean; onNote(text: string): void },
): Promise<ZonePlan> {
  const { file, text } = source
  const format = formatOf(text, source.asked)
  if (format === 'unsure') throw new BadInput(c.say.t('cli.formatUnsure', { file }))
  const live = await readZone(c, account.id, domain)
  const nameservers = format === 'bind' ? await nameserversOf(c, account, domain) : undefined
  const wanted = readZoneFile(text, domain, format, { records: live.records, ttl: live.ttl, nameservers })
  for (const n of wanted.notes) opts.onNote(c.say.code(n.code, n.params))
  if (wanted.issues.length > 0) {
    const lines = wanted.issues.map((i) =>
      c.say.t('cli.recordIssue', { line: i.index + 1, text: c.say.code(i.code, i.params) }),
    )
    throw new BadInput([c.say.t('cli.invalidRecords', { file }), ...lines].join('\n'))
  }
  const before = parse(live.records)
  const p = planOf(before, wanted.rows)
  const warnings = beforeSaveWarnings(c, wanted.rows, wanted.ttl, before)
  const ttlChanges = wanted.ttl !== undefined && wanted.ttl !== live.ttl
  const same = isEmptyPlan(p) && !ttlChanges
  const safety = safetyOfPlan(p, before, domain)
  const lines = planLines(c, p, { from: live.ttl, to: wanted.ttl })
  // The zone as it would be after the save, the findings it introduces first; never a reason to refuse.
  const health = await healthOfPlan(c, domain, before, wanted.rows, opts.offline)
  const summary = {
    domain,
    account: account.name,
    changes: lines.length,
    changed: safety.changed,
    total: safety.total,
    overRule: safety.needsOwnConfirmation,
    plan: lines,
    health,
    ...(same ? {} : { warnings }),
  }
  const read = { text, format, nameservers }
  return { domain, account, file: read, live, wanted, lines, warnings, same, safety, health, summary }
}

/** The save of a planned zone as a job's item: guarded by the zone the plan was made from. */
export function saveItemOf(z: ZonePlan) {
  const { domain, live, wanted } = z
  return {
    params: {
      domain,
      records: wanted.records,
      ns_type: live.ns_type,
      ...(wanted.ttl !== undefined ? { ttl: wanted.ttl } : {}),
    },
    label: domain,
    // Main reads the zone again just before the save and sends nothing if it moved.
    guard: { records: live.records, ...(live.ttl !== undefined ? { ttl: live.ttl } : {}), ns_type: live.ns_type },
    ...(z.safety.needsOwnConfirmation ? { overRule: true } : {}),
  }
}
