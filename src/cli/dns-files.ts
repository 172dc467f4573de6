/**
 * DNS as code (DNSControl's and OctoDNS's model): a zone exported, or a file planned against the
 * live zone, checked (exit 4 when they differ) or applied, the save guarded by the zone the plan
 * was made from and under the window's safety rules.
 */
import { readFile } from 'node:fs/promises'
import type { AccountView } from '@shared/accounts'
import type { Plan } from '@shared/dns/plan'
import { plan as planOf, isEmptyPlan } from '@shared/dns/plan'
import { parse, serialiseRow, type Row } from '@shared/dns/records'
import { LOWEST_KEPT_TTL, warnRows } from '@shared/dns/validate'
import { safetyOfPlan } from '@shared/dns/zone-safety'
import { BadInput, EXIT, Failed, failed, itemError, readZone, runWrite, zoneMoved, type Confirmation, type Context } from './context'
import type { ErrorData } from '@shared/errors'
import { formatOf, readZoneFile, zoneAsBind, type ZoneFormat } from './zone-file'
import { serviceKeptText } from '@shared/i18n/service-kept-text'
import { healthLines, healthOfPlan } from './health'

/**
 * The domain's nameservers (a BIND file's apex NS), when the account holds it as a domain; a free
 * DNS zone is not one, and has none to give.
 */
async function nameserversOf(c: Context, account: AccountView, domain: string): Promise<string[] | undefined> {
  const r = await c.session.call('domains.get', { accountId: account.id, domain })
  if (r.ok) return r.value.ns
  if (['bad-request', 'not-found', 'validation'].includes(r.error.kind)) return undefined
  throw new Failed(r.error)
}

export async function exportZone(c: Context, account: AccountView, domain: string, bind: boolean): Promise<number> {
  const live = await readZone(c, account.id, domain)
  if (!bind) {
    // A zone held with CRLF line ends is printed with the line ends of text (the CR would be printed escaped, as \u000d).
    c.io.out(c.json ? JSON.stringify({ domain, records: live.records, ttl: live.ttl, ns_type: live.ns_type }) : live.records.replace(/\r(?=\n|$)/g, ''))
    return EXIT.done
  }
  const exported = zoneAsBind(live.records, domain, live.ttl, await nameserversOf(c, account, domain))
  for (const n of exported.notes) c.io.err(c.say.code(n.code, n.params))
  c.io.out(c.json ? JSON.stringify({ domain, bind: exported.text }) : exported.text)
  return EXIT.done
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

export async function zoneFromFile(
  c: Context,
  account: AccountView,
  domain: string,
  file: string,
  asked: ZoneFormat | undefined,
  mode: 'plan' | 'check' | 'apply',
  opts: Confirmation & { force: boolean; offline?: boolean },
): Promise<number> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw BadInput.of(c.say, 'cli.fileUnreadable', { file, reason: typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown' })
  }
  const format = formatOf(text, asked)
  if (format === 'unsure') throw new BadInput(c.say.t('cli.formatUnsure', { file }))
  const live = await readZone(c, account.id, domain)
  const nameservers = format === 'bind' ? await nameserversOf(c, account, domain) : undefined
  const wanted = readZoneFile(text, domain, format, { records: live.records, ttl: live.ttl, nameservers })
  for (const n of wanted.notes) c.io.err(c.say.code(n.code, n.params))
  if (wanted.issues.length > 0) {
    const lines = wanted.issues.map((i) => c.say.t('cli.recordIssue', { line: i.index + 1, text: c.say.code(i.code, i.params) }))
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
  const health = await healthOfPlan(c, domain, before, wanted.rows, opts.offline === true)
  const summary = { domain, account: account.name, changes: lines.length, changed: safety.changed, total: safety.total, overRule: safety.needsOwnConfirmation, plan: lines, health, ...(same ? {} : { warnings }) }
  // What the window warns of before a save, in its words: said with the plan, on stderr.
  if (!same && !c.json && warnings.length) c.io.err(warnings.map((w) => `! ${w}`).join('\n'))
  if (!c.json) c.io.err(healthLines(c, domain, health).join('\n'))
  if (mode !== 'apply' || same) {
    if (c.json) c.io.out(JSON.stringify({ ...summary, same }))
    else c.io.out(same ? c.say.t('cli.noChange', { domain }) : lines.join('\n'))
    if (mode === 'check') return same ? EXIT.done : EXIT.differs
    return EXIT.done
  }
  if (!c.json) c.io.err(lines.join('\n'))
  if (safety.needsOwnConfirmation && !opts.force) throw BadInput.of(c.say, 'cli.overRule', { changed: safety.changed, total: safety.total })
  // Guarded by the zone the plan was made from: main reads it again just before the save and sends nothing if it moved.
  const ran = await runWrite(
    c,
    account,
    'domains.dns.set',
    [
      {
        params: { domain, records: wanted.records, ns_type: live.ns_type, ...(wanted.ttl !== undefined ? { ttl: wanted.ttl } : {}) },
        label: domain,
        guard: { records: live.records, ...(live.ttl !== undefined ? { ttl: live.ttl } : {}), ns_type: live.ns_type },
        ...(safety.needsOwnConfirmation ? { overRule: true } : {}),
      },
    ],
    opts,
  )
  if (!ran.ok) return failed(c, ran.error)
  const item = ran.job.items[0]
  const error = itemError(item, domain)
  if (error && zoneMoved(error)) return replanned(c, account.id, domain, { text, format, nameservers }, error)
  if (error) return failed(c, error)
  // Where what the service kept differs from what was sent (a TTL raised, a comment dropped), as the window says it.
  const kept = item?.serviceKept ?? []
  if (c.json) c.io.out(JSON.stringify({ ...summary, ok: true, requestId: item?.requestId, ...(kept.length ? { serviceKept: kept } : {}) }))
  else {
    c.io.out(c.say.t('cli.saved', { domain, count: summary.changes }))
    if (kept.length) c.io.err([c.say.t('serviceKept.title'), ...kept.map((f) => `  ${serviceKeptText({ t: c.say.t, tCode: c.say.code }, f)}`)].join('\n'))
  }
  return EXIT.done
}

/**
 * The zone changed between its plan and its save (someone else saved it; in team mode, the refusal
 * names the member when the team's history knows): nothing was sent. The plan is made again from
 * the zone as it is now and shown, with the refusal, and the command ends "zone differs" (exit 4)
 * for the user to look at the new plan and apply again.
 */
async function replanned(
  c: Context,
  accountId: string,
  domain: string,
  file: { text: string; format: ZoneFormat; nameservers: Parameters<typeof readZoneFile>[3]['nameservers'] },
  refusal: ErrorData,
): Promise<number> {
  const live = await readZone(c, accountId, domain)
  const wanted = readZoneFile(file.text, domain, file.format, { records: live.records, ttl: live.ttl, nameservers: file.nameservers })
  const p = planOf(parse(live.records), wanted.rows)
  const lines = planLines(c, p, { from: live.ttl, to: wanted.ttl })
  if (c.json) c.io.out(JSON.stringify({ ok: false, error: { kind: refusal.kind, code: refusal.code, params: refusal.params }, domain, replanned: true, plan: lines }))
  else {
    c.io.err(c.say.error(refusal))
    c.io.out(lines.length ? lines.join('\n') : c.say.t('cli.noChange', { domain }))
  }
  return EXIT.differs
}
