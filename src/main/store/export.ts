/**
 * Exports of what is stored: the whole portfolio's domains as one CSV, and every zone as a
 * BIND zone file. Both read the lists through getList, so whatever they contain passed the
 * item schemas; a damaged row is left out (and reported) as on screen.
 */
import { csvCell } from '@shared/formats/csv-cell'
import { toBind } from '@shared/dns/bind'
import { parse } from '@shared/dns/records'
import type { Connection } from './database'
import { accountsWithList, getList } from './inventory'
import { allZones } from './zones'
import type { ZoneFile } from '@shared/portfolio'
import { StoreProblem } from './types'

type Report = (p: StoreProblem) => void

export const CSV_COLUMNS = [
  'account_id',
  'account',
  'domainname',
  'domainid',
  'registrar',
  'expirationdate',
  'autorenew',
  'autorenew_all',
  'autorenew_domain',
  'transfer_lock',
  'whois_privacy',
  'nameservers',
  'dnssec_ds_records',
  'read_at',
] as const

export { csvCell }

/** A list of the account's by domain name, with the time it was read (to take the fresher of two values). */
function byDomain<T extends { domainname: string }>(list: { items: T[]; readAt: string } | undefined) {
  return { readAt: list?.readAt ?? '', items: new Map((list?.items ?? []).map((i) => [i.domainname, i])) }
}

export function exportCsv(
  conn: Connection,
  report: Report,
  accountNames: Readonly<Record<string, string>> = {},
): string {
  const lines: string[] = [CSV_COLUMNS.join(',')]
  for (const accountId of accountsWithList(conn, 'domains.list')) {
    const domains = getList(conn, accountId, 'domains.list', {}, report)
    if (!domains) continue
    const expiration = byDomain(getList(conn, accountId, 'domains.expiration.list', {}, report))
    const autorenew = byDomain(getList(conn, accountId, 'domains.autorenew.list', {}, report))
    const lock = byDomain(getList(conn, accountId, 'domains.transferlock.list', {}, report))
    const whois = byDomain(getList(conn, accountId, 'domains.whois.list', {}, report))
    const ns = byDomain(getList(conn, accountId, 'domains.nameserver.list', {}, report))
    const dnssec = byDomain(getList(conn, accountId, 'domains.dnssec.list', {}, report))
    // The setting's own list is newer than the domain list when it was read after it.
    const newer = (readAt: string) => readAt > domains.readAt
    for (const d of domains.items) {
      const exp = expiration.items.get(d.domainname)
      const auto = autorenew.items.get(d.domainname)
      const renew = auto && newer(autorenew.readAt) ? auto : d
      const cells = [
        accountId,
        accountNames[accountId] ?? '',
        d.domainname,
        d.domainid,
        d.registrar,
        exp && newer(expiration.readAt) ? exp.expirationdate : d.expirationdate,
        renew.autorenew,
        renew.autorenew_all,
        renew.autorenew_domain,
        lock.items.get(d.domainname)?.transfer_lock,
        // Only whether WHOIS privacy is on: never the contacts.
        whois.items.get(d.domainname)?.whoisproxy,
        ns.items.get(d.domainname)?.ns.join(' '),
        dnssec.items.get(d.domainname)?.ds_records.length,
        domains.readAt,
      ]
      lines.push(cells.map(csvCell).join(','))
    }
  }
  return `${lines.join('\r\n')}\r\n`
}

/** A path segment that names a folder or file on every system (account ids and domain names already are). */
const segment = (s: string): string => s.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_')

export function exportZones(conn: Connection, report: Report): ZoneFile[] {
  return allZones(conn, report).map((z) => {
    const bind = toBind(parse(z.records), z.domain, z.ttl)
    const folder = z.kind === 'dns' ? segment(z.accountId) : `${segment(z.accountId)}/freedns`
    return {
      path: `${folder}/${segment(z.domain)}.zone`,
      text: bind.text,
      accountId: z.accountId,
      kind: z.kind,
      domain: z.domain,
      notExported: bind.report.length,
    }
  })
}
