/**
 * Renewals from a script: the domains whose registration ends within a period, listed; renewed
 * only with --yes (each renewal costs money), and for a production account only with its name.
 * Renewals are never retried: an outcome unknown is exit 3, to be looked at in the app's Writes.
 */
import { randomUUID } from 'node:crypto'
import type { AccountView } from '../shared/accounts'
import { isDoneElsewhere } from '../shared/jobs'
import { EXIT, failed, Failed, runWrite, type Confirmation, type Context } from './context'

const DAY_MS = 86_400_000

export async function renew(c: Context, account: AccountView, opts: Confirmation & { withinDays: number; years: number; now: Date }): Promise<number> {
  const listed = await c.session.call('all.domains.expiration.list', { accountId: account.id, callId: `cli-${randomUUID()}` })
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
  )
  if (!ran.ok) return failed(c, ran.error)
  const items = ran.job.items
  // A domain a colleague (or another write) renewed after this command listed it was not sent: said with who and when.
  const outcome = items.map((it, i) => ({ domain: due[i]?.domain ?? it.label ?? '', state: it.state, requestId: it.requestId, ...(isDoneElsewhere(it) && it.error ? { doneElsewhere: c.say.error(it.error) } : {}) }))
  for (const o of outcome) c.io.err(`${o.domain}\t${o.doneElsewhere ?? c.say.t(`jobs.state.${o.state}`)}`)
  const count = (s: string) => outcome.filter((o) => o.state === s).length
  const elsewhere = outcome.filter((o) => o.doneElsewhere !== undefined).length
  if (c.json) c.io.out(JSON.stringify({ account: account.name, years: opts.years, domains: outcome, renewed: true }))
  else c.io.out(c.say.t('cli.renew.summary', { done: count('done'), elsewhere, failed: count('failed') + count('skipped') - elsewhere + count('pending'), unknown: count('unknown') }))
  if (count('unknown') > 0) return EXIT.unknown
  // Every domain renewed, here or by someone else since it was listed: what was asked is done.
  return count('done') + elsewhere === items.length ? EXIT.done : EXIT.failed
}
