/**
 * DNS as code (DNSControl's and OctoDNS's model): a zone exported, or a file planned against the
 * live zone, checked (exit 4 when they differ) or applied, the save guarded by the zone the plan
 * was made from and under the window's safety rules.
 */
import type { AccountView } from '@shared/accounts'
import { plan as planOf } from '@shared/dns/plan'
import { parse } from '@shared/dns/records'
import { BadInput, EXIT, failed, itemError, readZone, runWrite, zoneMoved } from './context'
import type { Confirmation, Context } from './context'
import type { ErrorData } from '@shared/errors'
import { readZoneFile, zoneAsBind, type ZoneFormat } from './zone-file'
import { serviceKeptText } from '@shared/i18n/service-kept-text'
import { healthLines } from './health'
import { nameserversOf, planLines, planZone, readZoneText, saveItemOf } from './zone-plan'

export async function exportZone(c: Context, account: AccountView, domain: string, bind: boolean): Promise<number> {
  const live = await readZone(c, account.id, domain)
  if (!bind) {
    // A zone held with CRLF line ends is printed with the line ends of text (the CR would be printed escaped, as \u000d).
    c.io.out(
      c.json
        ? JSON.stringify({ domain, records: live.records, ttl: live.ttl, ns_type: live.ns_type })
        : live.records.replace(/\r(?=\n|$)/g, ''),
    )
    return EXIT.done
  }
  const exported = zoneAsBind(live.records, domain, live.ttl, await nameserversOf(c, account, domain))
  for (const n of exported.notes) c.io.err(c.say.code(n.code, n.params))
  c.io.out(c.json ? JSON.stringify({ domain, bind: exported.text }) : exported.text)
  return EXIT.done
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
  const text = await readZoneText(c, file)
  const onNote = (n: string) => c.io.err(n)
  const z = await planZone(c, account, domain, { file, text, asked }, { offline: opts.offline === true, onNote })
  const { same, warnings, lines, summary, safety } = z
  // What the window warns of before a save, in its words: said with the plan, on stderr.
  if (!same && !c.json && warnings.length) c.io.err(warnings.map((w) => `! ${w}`).join('\n'))
  if (!c.json) c.io.err(healthLines(c, domain, z.health).join('\n'))
  if (mode !== 'apply' || same) {
    if (c.json) c.io.out(JSON.stringify({ ...summary, same }))
    else c.io.out(same ? c.say.t('cli.noChange', { domain }) : lines.join('\n'))
    if (mode === 'check') return same ? EXIT.done : EXIT.differs
    return EXIT.done
  }
  if (!c.json) c.io.err(lines.join('\n'))
  if (safety.needsOwnConfirmation && !opts.force)
    throw BadInput.of(c.say, 'cli.overRule', { changed: safety.changed, total: safety.total })
  // Guarded by the zone the plan was made from: main reads it again just before the save and sends nothing if it moved.
  const ran = await runWrite(c, account, 'domains.dns.set', [saveItemOf(z)], opts)
  if (!ran.ok) return failed(c, ran.error)
  const item = ran.job.items[0]
  const error = itemError(item, domain)
  if (error && zoneMoved(error)) return replanned(c, account.id, domain, z.file, error)
  if (error) return failed(c, error)
  // Where what the service kept differs from what was sent (a TTL raised, a comment dropped), as the window says it.
  const kept = item?.serviceKept ?? []
  if (c.json)
    c.io.out(
      JSON.stringify({
        ...summary,
        ok: true,
        requestId: item?.requestId,
        ...(kept.length ? { serviceKept: kept } : {}),
      }),
    )
  else {
    c.io.out(c.say.t('cli.saved', { domain, count: summary.changes }))
    if (kept.length)
      c.io.err(
        [
          c.say.t('serviceKept.title'),
          ...kept.map((f) => `  ${serviceKeptText({ t: c.say.t, tCode: c.say.code }, f)}`),
        ].join('\n'),
      )
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
  const wanted = readZoneFile(file.text, domain, file.format, {
    records: live.records,
    ttl: live.ttl,
    nameservers: file.nameservers,
  })
  const p = planOf(parse(live.records), wanted.rows)
  const lines = planLines(c, p, { from: live.ttl, to: wanted.ttl })
  if (c.json)
    c.io.out(
      JSON.stringify({
        ok: false,
        error: { kind: refusal.kind, code: refusal.code, params: refusal.params },
        domain,
        replanned: true,
        plan: lines,
      }),
    )
  else {
    c.io.err(c.say.error(refusal))
    c.io.out(lines.length ? lines.join('\n') : c.say.t('cli.noChange', { domain }))
  }
  return EXIT.differs
}
