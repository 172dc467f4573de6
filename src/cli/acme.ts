/**
 * ACME DNS-01 for certbot's manual hooks and lego's exec provider: one TXT line added to (or
 * removed from) the zone through a guarded save, then a wait until every authoritative
 * nameserver of the zone serves it.
 *
 *   certbot --manual-auth-hook 'hosting-admin acme auth' --manual-cleanup-hook 'hosting-admin acme cleanup'
 *     (CERTBOT_DOMAIN and CERTBOT_VALIDATION; a wildcard and its base name put two values at one name)
 *   EXEC_PATH=hosting-admin-lego: `acme present <fqdn> <value>` / `acme cleanup <fqdn> <value>`
 *
 * The line is written in the service's records form (`txt _acme-challenge.www <value>`) and the
 * rest of the zone is kept byte for byte; a cleanup removes only a line its auth added.
 */
import type { AccountView } from '../shared/accounts'
import { parse } from '../shared/dns/records'
import { plan as planOf } from '../shared/dns/plan'
import { safetyOfPlan } from '../shared/dns/zone-safety'
import { BadInput, EXIT, Failed, failed, itemError, readZone, runWrite, type Confirmation, type Context } from './context'
import { forget, noteAdded, wasAdded } from './acme-ledger'
import { addressMapOf, nameserversOf, waitUntilServed } from './propagation'

export interface AcmeRequest {
  mode: 'add' | 'remove'
  /** The TXT record's full name, lower case, without the final dot. */
  fqdn: string
  value: string
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, '')

/** What certbot's environment or lego's arguments ask for; a BadInput names what is missing. */
export function acmeRequestOf(c: Context, verb: string | undefined, args: string[]): AcmeRequest {
  const fromLego = (mode: AcmeRequest['mode']): AcmeRequest => {
    const [fqdn, value] = args
    if (!fqdn || !value) throw new BadInput(c.say.t('cli.acme.needsValue'))
    return { mode, fqdn: bare(fqdn), value }
  }
  const fromCertbot = (mode: AcmeRequest['mode']): AcmeRequest => {
    const domain = c.io.env.CERTBOT_DOMAIN
    const value = c.io.env.CERTBOT_VALIDATION
    if (!domain || !value) throw new BadInput(c.say.t('cli.acme.needsValue'))
    // certbot names a wildcard's base name (example.com for *.example.com); tolerate the star too.
    return { mode, fqdn: `_acme-challenge.${bare(domain).replace(/^\*\./, '')}`, value }
  }
  if (verb === 'present') return fromLego('add')
  if (verb === 'auth') return fromCertbot('add')
  // lego names the record and value; certbot's cleanup hook has them in its environment.
  return args.length > 0 ? fromLego('remove') : fromCertbot('remove')
}

/**
 * The account's domain the name belongs to: the longest suffix of it the account holds (or the
 * one named by --zone), with its nameservers. The service answers a domain the account does not
 * hold with 400 "domainname is invalid."; any other failure ends the command.
 */
async function zoneOfName(c: Context, account: AccountView, fqdn: string, named: string | undefined): Promise<{ domain: string; ns: string[] }> {
  const labels = fqdn.split('.')
  const candidates = named ? [bare(named)] : labels.slice(1, -1).map((_, i) => labels.slice(i + 1).join('.'))
  for (const domain of candidates) {
    if (fqdn !== domain && !fqdn.endsWith(`.${domain}`)) continue
    const r = await c.session.call('domains.get', { accountId: account.id, domain })
    if (r.ok) return { domain: bare(r.value.domainname || domain), ns: r.value.ns }
    if (!['bad-request', 'not-found', 'validation'].includes(r.error.kind)) throw new Failed(r.error)
  }
  throw new BadInput(c.say.t('cli.acme.noZone', { name: fqdn, account: account.name }))
}

const hostIn = (fqdn: string, domain: string) => (fqdn === domain ? '@' : fqdn.slice(0, -(domain.length + 1)))

/** The zone's text with one line added at its end, its own last newline (or none) kept. */
export function withLine(records: string, line: string): string {
  if (records === '') return line
  return records.endsWith('\n') ? `${records}${line}\n` : `${records}\n${line}`
}

/** The zone's text without the last line equal to `line`; undefined when it has none. */
export function withoutLine(records: string, line: string): string | undefined {
  const lines = records.split('\n')
  const at = lines.lastIndexOf(line)
  if (at < 0) return undefined
  lines.splice(at, 1)
  return lines.join('\n')
}

export interface AcmeOptions extends Confirmation {
  zone: string | undefined
  force: boolean
  timeoutMs: number
  intervalMs: number
}

export async function acme(c: Context, account: AccountView, request: AcmeRequest, opts: AcmeOptions): Promise<number> {
  const zone = await zoneOfName(c, account, request.fqdn, opts.zone)
  const live = await readZone(c, account.id, zone.domain)
  const line = `txt ${hostIn(request.fqdn, zone.domain)} ${request.value}`
  const mine = { accountId: account.id, domain: zone.domain, line }
  let records: string | undefined
  if (request.mode === 'add') {
    if (live.records.split('\n').includes(line)) c.io.err(c.say.t('cli.acme.alreadyThere', { name: request.fqdn }))
    else records = withLine(live.records, line)
  } else {
    if (!(await wasAdded(c.dataDir, mine))) {
      c.io.err(c.say.t('cli.acme.notOurs', { name: request.fqdn }))
      if (c.json) c.io.out(JSON.stringify({ ok: true, domain: zone.domain, name: request.fqdn, removed: false }))
      return EXIT.done
    }
    records = withoutLine(live.records, line)
    if (records === undefined) {
      await forget(c.dataDir, mine)
      c.io.err(c.say.t('cli.acme.alreadyGone', { name: request.fqdn }))
    }
  }
  if (records !== undefined) {
    const before = parse(live.records)
    const safety = safetyOfPlan(planOf(before, parse(records)), before, zone.domain)
    if (safety.needsOwnConfirmation && !opts.force) throw new BadInput(c.say.t('cli.overRule', { changed: safety.changed, total: safety.total }))
    // Noted before it is sent: an outcome unknown still lets the cleanup remove it if it is there.
    if (request.mode === 'add') await noteAdded(c.dataDir, { ...mine, at: new Date().toISOString() })
    const ran = await runWrite(
      c,
      account,
      'domains.dns.set',
      [
        {
          params: { domain: zone.domain, records, ns_type: live.ns_type, ...(live.ttl !== undefined ? { ttl: live.ttl } : {}) },
          label: zone.domain,
          guard: { records: live.records, ...(live.ttl !== undefined ? { ttl: live.ttl } : {}), ns_type: live.ns_type },
          ...(safety.needsOwnConfirmation ? { overRule: true } : {}),
        },
      ],
      opts,
    ).catch(async (err: unknown) => {
      if (request.mode === 'add') await forget(c.dataDir, mine)
      throw err
    })
    const error = ran.ok ? itemError(ran.job.items[0], zone.domain) : ran.error
    if (error) {
      if (request.mode === 'add' && error.kind !== 'outcome-unknown') await forget(c.dataDir, mine)
      return failed(c, error)
    }
    if (request.mode === 'remove') await forget(c.dataDir, mine)
    c.io.err(c.say.t(request.mode === 'add' ? 'cli.acme.added' : 'cli.acme.removed', { name: request.fqdn, domain: zone.domain }))
  }
  if (request.mode === 'remove') {
    if (c.json) c.io.out(JSON.stringify({ ok: true, domain: zone.domain, name: request.fqdn, removed: records !== undefined }))
    return EXIT.done
  }
  // The wait needs nothing of the app's: the data folder is left to the app meanwhile.
  await c.session.close()
  return await waitForNameservers(c, zone, request, opts)
}

async function waitForNameservers(c: Context, zone: { domain: string; ns: string[] }, request: AcmeRequest, opts: AcmeOptions): Promise<number> {
  const { nameservers, unresolved } = await nameserversOf(zone.ns, addressMapOf(c.io.env.HOSTING_ADMIN_NS_ADDRESSES))
  for (const u of unresolved) c.io.err(c.say.t('cli.acme.nsUnresolved', { ns: u.name, reason: u.reason }))
  if (nameservers.length === 0) {
    c.io.err(c.say.t('cli.acme.noNameservers', { domain: zone.domain }))
    return EXIT.failed
  }
  for (const ns of nameservers) c.io.err(c.say.t('cli.acme.waiting', { ns: ns.name, name: request.fqdn }))
  const late = await waitUntilServed(nameservers, {
    fqdn: request.fqdn,
    value: request.value,
    timeoutMs: opts.timeoutMs,
    intervalMs: opts.intervalMs,
    onServed: (ns, afterMs) => c.io.err(c.say.t('cli.acme.served', { ns: ns.name, seconds: Math.round(afterMs / 100) / 10 })),
  })
  const served = late.length === 0 && unresolved.length === 0
  if (c.json) c.io.out(JSON.stringify({ ok: served, domain: zone.domain, name: request.fqdn, late: [...late.map((n) => n.name), ...unresolved.map((u) => u.name)] }))
  if (late.length > 0) c.io.err(c.say.t('cli.acme.timedOut', { names: late.map((n) => n.name).join(', '), seconds: Math.round(opts.timeoutMs / 1000) }))
  return served ? EXIT.done : EXIT.failed
}
