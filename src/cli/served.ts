/**
 * `hosting-admin dns served <domain>|--all`: what each delegated nameserver serves held against
 * what the service holds (main/dns-health/compare-zone.ts, as the window's), for monitoring: exit 4 when any differs.
 * Nameserver names map to addresses as the ACME wait's do (HOSTING_ADMIN_NS_ADDRESSES).
 * With --all, zones are compared a few at a time; the service is read once per list. Each
 * comparison is recorded in the app's history as the window's is (a nameserver fell behind or caught
 * up: an entry), through a session opened again once the nameservers have answered.
 */
import type { AccountView } from '@shared/accounts'
import { zoneComparer } from '../main/dns-health/compare-zone'
import { isServedDifference, servedOutcome, type ServedReport } from '@shared/dns/health/served'
import { EXIT, Failed, readZone, type Context } from './context'
import { openSession } from './session'

/** Zones compared at once: each asks its nameservers in parallel already. */
const ZONES_AT_ONCE = 4

interface Zone {
  domain: string
  ns: string[]
  records: string
}

async function oneZone(c: Context, account: AccountView, domain: string): Promise<Zone> {
  const d = await c.session.call('domains.get', { accountId: account.id, domain })
  if (!d.ok) throw new Failed(d.error)
  const live = await readZone(c, account.id, domain)
  return { domain, ns: d.value.ns, records: live.records }
}

async function everyZone(c: Context, account: AccountView): Promise<Zone[]> {
  const callId = `cli-served-${Date.now()}`
  const ns = await c.session.call('all.domains.nameserver.list', { accountId: account.id, callId: `${callId}-ns` })
  if (!ns.ok) throw new Failed(ns.error)
  const dns = await c.session.call('all.domains.dns.list', { accountId: account.id, callId: `${callId}-dns` })
  if (!dns.ok) throw new Failed(dns.error)
  const nsOf = new Map(ns.value.map((d) => [d.domainname.toLowerCase(), d.ns]))
  return dns.value.map((z) => ({
    domain: z.domainname,
    ns: nsOf.get(z.domainname.toLowerCase()) ?? [],
    records: z.records,
  }))
}

/**
 * The comparisons recorded in history by the services of a session opened for it, as the window's
 * are; when none can be opened (or it refuses), said on stderr: the outcome and exit code stand.
 */
async function recordInHistory(c: Context, account: AccountView, reports: readonly ServedReport[]): Promise<void> {
  const opened = await openSession(c.dataDir, c.storeWorkerUrl ? { storeWorkerUrl: c.storeWorkerUrl } : {})
  if (!opened.ok) {
    c.io.err(`${c.say.error(opened.error)}\n${c.say.t('cli.served.notInHistory')}`)
    return
  }
  try {
    const r = await opened.session.call('dns.servedRecord', {
      accountId: account.id,
      zones: reports.map((z) => ({ domain: z.domain, findings: z.findings })),
    })
    if (!r.ok) c.io.err(`${c.say.error(r.error)}\n${c.say.t('cli.served.notInHistory')}`)
  } finally {
    await opened.session.close()
  }
}

export async function served(c: Context, account: AccountView, domain: string | undefined): Promise<number> {
  const zones = domain ? [await oneZone(c, account, domain)] : await everyZone(c, account)
  // Asking nameservers needs nothing of the app's: the data folder is left to the app meanwhile.
  await c.session.close()
  const compare = zoneComparer(c.io.env)
  const reports: ServedReport[] = new Array<ServedReport>(zones.length)
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < zones.length) {
      const i = next++
      const z = zones[i]
      if (!z) continue
      reports[i] = await compare(z)
      done++
      if (zones.length > 1) c.io.err(c.say.t('cli.progress', { done, total: zones.length }))
    }
  }
  await Promise.all(Array.from({ length: Math.min(ZONES_AT_ONCE, zones.length) }, worker))
  await recordInHistory(c, account, reports)
  // A zone that could not be compared is no difference (exit 0 unless another differs), but is said.
  const outcomes = reports.map((r) => servedOutcome(r.findings))
  const differs = outcomes.some((o) => o === 'differs' || o === 'delegated')
  if (c.json) {
    const zones = reports.map((r, i) => ({
      domain: r.domain,
      outcome: outcomes[i],
      same: outcomes[i] === 'same',
      findings: r.findings,
    }))
    c.io.out(JSON.stringify({ account: account.name, differs, zones }))
  } else
    reports.forEach((r, i) => {
      const outcome = outcomes[i] ?? 'unknown'
      const head = c.say.t(`cli.served.${outcome}`, {
        domain: r.domain,
        count: r.findings.filter(isServedDifference).length,
      })
      c.io.out([head, ...r.findings.map((f) => `  ${c.say.code(f.code, f.params)}`)].join('\n'))
    })
  return differs ? EXIT.differs : EXIT.done
}
