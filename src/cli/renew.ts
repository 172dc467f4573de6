/**
 * Renewals from a script: the domains whose registration ends within a period, listed; renewed
 * only with --yes (each renewal costs money), and for a production account only with its name.
 * Renewals are never retried: an outcome unknown is exit 3, to be looked at in the app's Writes.
 * With --skip-busy, the domains another write holds (a colleague's on its way, or one of unknown
 * outcome) are left out instead of refusing them all, each said with who holds it: exit 5.
 */
import { randomUUID } from 'node:crypto'
import type { AccountView } from '@shared/accounts'
import { isDoneElsewhere } from '@shared/jobs'
import { EXIT, failed, Failed, runWrite, type Confirmation, type Context } from './context'
import { heldWhenSent, leftOutJson, leftOutLine, type LeftOut } from './left-out'

const DAY_MS = 86_400_000

export async function renew(
  c: Context,
  account: AccountView,
  opts: Confirmation & { withinDays: number; years: number; now: Date; skipBusy?: boolean },
): Promise<number> {
  const listed = await c.session.call('all.domains.expiration.list', {
    accountId: account.id,
    callId: `cli-${randomUUID()}`,
  })
  if (!listed.ok) throw new Failed(listed.error)
  const limit = opts.now.getTime() + opts.withinDays * DAY_MS
  const due = listed.value
    .map((d) => ({ domain: d.domainname, expires: d.expirationdate }))
    .filter((d) => Number.isFinite(Date.parse(d.expires)) && Date.parse(d.expires) <= limit)
    .sort((a, b) => a.expires.localeCompare(b.expires) || a.domain.localeCompare(b.domain))
  const rows = due.map((d) => `${d.domain}\t${d.expires.slice(0, 10)}`)
  if (due.length === 0) {
    if (c.json) c.io.out(JSON.stringify({ account: account.name, years: opts.years, domains: [], renewed: false }))
    else c.io.out(c.say.t('cli.renew.none', { days: opts.withinDays }))
    return EXIT.done
  }
  if (!opts.yes && opts.typedName === undefined) {
    if (c.json) c.io.out(JSON.stringify({ account: account.name, years: opts.years, domains: due, renewed: false }))
    else c.io.out(rows.join('\n'))
    c.io.err(c.say.t('cli.renew.wouldRenew', { count: due.length, years: opts.years, account: account.name }))
    return EXIT.done
  }
  c.io.err(rows.join('\n'))
  const ran = await runWrite(
    c,
    account,
    'domains.expiration.renew',
    due.map((d) => ({ params: { domain: d.domain, years: opts.years }, label: d.domain })),
    opts,
    { skipBusy: opts.skipBusy === true },
  )
  if (!ran.ok) return failed(c, ran.error)
  const items = ran.job.items
  // Gone around (--skip-busy): held by another write when listed, or when their turn came (nothing sent for either).
  const heldLater = opts.skipBusy ? heldWhenSent(items) : []
  const leftOut: LeftOut[] = [...ran.leftOut, ...heldLater]
  // A domain a colleague (or another write) renewed after this command listed it was not sent: said with who and when.
  const outcome = items.map((it) => ({
    domain: it.label,
    state: it.state,
    requestId: it.requestId,
    ...(isDoneElsewhere(it) && it.error ? { doneElsewhere: c.say.error(it.error) } : {}),
  }))
  const heldNames = new Set(heldLater.map((l) => l.label))
  for (const o of outcome)
    if (!heldNames.has(o.domain)) c.io.err(`${o.domain}\t${o.doneElsewhere ?? c.say.t(`jobs.state.${o.state}`)}`)
  for (const l of leftOut) c.io.err(leftOutLine(c.say, l))
  const count = (s: string) => outcome.filter((o) => o.state === s).length
  const elsewhere = outcome.filter((o) => o.doneElsewhere !== undefined).length
  if (c.json)
    c.io.out(
      JSON.stringify({
        account: account.name,
        years: opts.years,
        domains: outcome,
        renewed: items.length > 0,
        ...(opts.skipBusy ? { leftOut: leftOut.map(leftOutJson) } : {}),
      }),
    )
  else {
    c.io.out(
      c.say.t('cli.renew.summary', {
        done: count('done'),
        elsewhere,
        failed: count('failed') - heldLater.length + count('skipped') - elsewhere + count('pending'),
        unknown: count('unknown'),
      }),
    )
    if (leftOut.length > 0) c.io.out(c.say.t('cli.renew.leftOut', { count: leftOut.length }))
  }
  if (count('unknown') > 0) return EXIT.unknown
  // Every domain renewed, here or by someone else since it was listed: what was asked is done;
  // but for those left out because another write held them (exit 5: to be renewed once it ended).
  if (count('done') + elsewhere + heldLater.length !== items.length) return EXIT.failed
  return leftOut.length > 0 ? EXIT.doneWithSkips : EXIT.done
}
