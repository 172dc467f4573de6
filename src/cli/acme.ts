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
import type { AccountView } from '@shared/accounts'
import type { CliLockWait } from '../main/app/app-services'
import type { Texts } from './text'
import type { ErrorData } from '@shared/errors'
import { parse } from '@shared/dns/records'
import { plan as planOf } from '@shared/dns/plan'
import { safetyOfPlan } from '@shared/dns/zone-safety'
import {
  BadInput,
  EXIT,
  Failed,
  failed,
  itemError,
  pause,
  readZone,
  runWrite,
  targetBusy,
  zoneMoved,
  type Confirmation,
  type Context,
  type Io,
} from './context'
import { forget, LedgerUnwritable, noteAdded, wasAdded } from './acme-ledger'
import { hostNameOf, type AcmeRequest } from './acme-input'
import { addressMapOf, nameserversOf, waitUntilServed } from './propagation'

export { acmeRequestOf, type AcmeRequest } from './acme-input'

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, '')

/**
 * What the hook has to say while it works. certbot shows a hook's stderr as "error output"
 * even when it exits 0, and its stdout as "ran with output" (the auth hook's stdout also
 * becomes CERTBOT_AUTH_OUTPUT, which the cleanup does not read); lego logs both alike. So
 * progress goes to stdout, and stderr carries only what ends the command with a non-zero exit.
 * With --json, stdout is the one JSON line: progress goes nowhere.
 */
const progress = (c: Context, text: string) => {
  if (!c.json) c.io.out(text)
}

/**
 * An ACME hook meeting another command on the data folder (a second certbot run with the app
 * closed) waits for it up to its --timeout, saying so once (on stdout, as its progress).
 */
export function acmeLockWait(io: Io, say: Texts, timeoutMs: number | undefined, json: boolean): CliLockWait {
  let told = false
  return {
    ...(timeoutMs !== undefined ? { waitForCliMs: timeoutMs } : {}),
    onWait: (holder) => {
      if (told || json) return
      told = true
      io.out(say.t('cli.acme.waitingFolder', { pid: holder.pid }))
    },
  }
}

/**
 * The account's domain the name belongs to: the longest suffix of it the account holds (or the
 * one named by --zone), with its nameservers. The service answers a domain the account does not
 * hold with 400 "domainname is invalid."; any other failure ends the command.
 */
async function zoneOfName(
  c: Context,
  account: AccountView,
  fqdn: string,
  named: string | undefined,
): Promise<{ domain: string; ns: string[] }> {
  const labels = fqdn.split('.')
  const zoneNamed = named === undefined ? undefined : hostNameOf(named)
  if (named !== undefined && !zoneNamed)
    throw BadInput.of(c.say, 'cli.acme.badName', { name: JSON.stringify(named.slice(0, 80)) })
  const candidates = zoneNamed ? [zoneNamed] : labels.slice(1, -1).map((_, i) => labels.slice(i + 1).join('.'))
  for (const domain of candidates) {
    if (fqdn !== domain && !fqdn.endsWith(`.${domain}`)) continue
    const r = await c.session.call('domains.get', { accountId: account.id, domain })
    if (r.ok) return { domain: bare(r.value.domainname || domain), ns: r.value.ns }
    if (!['bad-request', 'not-found', 'validation'].includes(r.error.kind)) throw new Failed(r.error)
  }
  throw BadInput.of(c.say, 'cli.acme.noZone', { name: fqdn, account: account.name })
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

/** Rounds of waiting for a busy zone or re-reading a moved one; the --timeout ends them first. */
const MAX_ROUNDS = 200
/** The first wait for a zone another write holds; it doubles up to TURN_WAIT_MAX_MS. */
const TURN_WAIT_FIRST_MS = 200
const TURN_WAIT_MAX_MS = 2000

export async function acme(c: Context, account: AccountView, request: AcmeRequest, opts: AcmeOptions): Promise<number> {
  try {
    return await acmeIn(c, account, request, opts)
  } catch (err) {
    if (!(err instanceof LedgerUnwritable)) throw err
    c.io.err(c.say.t('cli.acme.ledgerUnwritable', { path: err.file, reason: err.reason }))
    return EXIT.failed
  }
}

async function acmeIn(c: Context, account: AccountView, request: AcmeRequest, opts: AcmeOptions): Promise<number> {
  // Another write of the zone (a second certbot run, the window) is waited for up to --timeout.
  const turnDeadline = Date.now() + opts.timeoutMs
  if (c.session.viaApp) progress(c, c.say.t('cli.viaApp'))
  const zone = await zoneOfName(c, account, request.fqdn, opts.zone)
  const line = `txt ${hostIn(request.fqdn, zone.domain)} ${request.value}`
  const mine = { accountId: account.id, domain: zone.domain, line }
  if (request.mode === 'remove' && !(await wasAdded(c.dataDir, mine))) {
    progress(c, c.say.t('cli.acme.notOurs', { name: request.fqdn }))
    if (c.json) c.io.out(JSON.stringify({ ok: true, domain: zone.domain, name: request.fqdn, removed: false }))
    return EXIT.done
  }
  /** This run noted the line (not an earlier run): only then is the note its own to take back. */
  let noted = false
  let tried = false
  let changed = false
  /** The wait for another write's turn is said once, however many rounds it takes. */
  let toldTurn = false
  const unnote = async () => {
    // The line was never sent: the cleanup has nothing of this run's to remove.
    if (noted) await forget(c.dataDir, mine).catch(() => undefined)
  }
  for (let round = 0, turnWaitMs = TURN_WAIT_FIRST_MS; ; round++) {
    // The zone as it is now: after another write's turn, the line goes into what that one left.
    const live = await readZone(c, account.id, zone.domain)
    let records: string | undefined
    if (request.mode === 'add') {
      if (live.records.split('\n').includes(line)) progress(c, c.say.t('cli.acme.alreadyThere', { name: request.fqdn }))
      else records = withLine(live.records, line)
    } else {
      records = withoutLine(live.records, line)
      if (records === undefined) {
        await forget(c.dataDir, mine)
        progress(c, c.say.t('cli.acme.alreadyGone', { name: request.fqdn }))
      }
    }
    if (records === undefined) {
      // Nothing of this run's to send (another run's line is in place, or gone already).
      await unnote()
      break
    }
    const before = parse(live.records)
    const safety = safetyOfPlan(planOf(before, parse(records)), before, zone.domain)
    if (safety.needsOwnConfirmation && !opts.force) {
      await unnote()
      throw BadInput.of(c.say, 'cli.overRule', { changed: safety.changed, total: safety.total })
    }
    // Noted before it is sent: an outcome unknown still lets the cleanup remove it if it is there.
    if (request.mode === 'add' && !tried) {
      noted = await noteAdded(c.dataDir, { ...mine, at: new Date().toISOString() })
      tried = true
    }
    const ran = await runWrite(
      c,
      account,
      'domains.dns.set',
      [
        {
          params: {
            domain: zone.domain,
            records,
            ns_type: live.ns_type,
            ...(live.ttl !== undefined ? { ttl: live.ttl } : {}),
          },
          label: zone.domain,
          guard: { records: live.records, ...(live.ttl !== undefined ? { ttl: live.ttl } : {}), ns_type: live.ns_type },
          ...(safety.needsOwnConfirmation ? { overRule: true } : {}),
        },
      ],
      opts,
    ).catch(async (err: unknown) => {
      await unnote()
      throw err
    })
    const error: ErrorData | undefined = ran.ok ? itemError(ran.job.items[0], zone.domain) : ran.error
    if (!error) {
      changed = true
      break
    }
    // Refused with nothing sent: the zone is busy with another write, or moved since it was read.
    // The change is this one line, made again from the zone as it is then; a write whose outcome
    // is unknown is never among these, and never sent again.
    const waitable = targetBusy(error) || zoneMoved(error)
    const left = turnDeadline - Date.now()
    if (waitable && left > 0 && round < MAX_ROUNDS) {
      if (targetBusy(error)) {
        if (!toldTurn) progress(c, c.say.t('cli.acme.waitingTurn', { domain: zone.domain }))
        toldTurn = true
        const waited = await pause(Math.min(turnWaitMs, left), c.io.signal)
        turnWaitMs = Math.min(TURN_WAIT_MAX_MS, turnWaitMs * 2)
        if (waited) continue
      } else {
        progress(c, c.say.t('cli.acme.zoneMoved', { domain: zone.domain }))
        continue
      }
    }
    if (error.kind !== 'outcome-unknown') await unnote()
    return failed(c, error)
  }
  if (changed) {
    if (request.mode === 'remove') await forget(c.dataDir, mine)
    progress(
      c,
      c.say.t(request.mode === 'add' ? 'cli.acme.added' : 'cli.acme.removed', {
        name: request.fqdn,
        domain: zone.domain,
      }),
    )
  }
  if (request.mode === 'remove') {
    if (c.json) c.io.out(JSON.stringify({ ok: true, domain: zone.domain, name: request.fqdn, removed: changed }))
    return EXIT.done
  }
  // The wait needs nothing of the app's: the data folder is left to the app meanwhile.
  await c.session.close()
  return await waitForNameservers(c, zone, request, opts)
}

async function waitForNameservers(
  c: Context,
  zone: { domain: string; ns: string[] },
  request: AcmeRequest,
  opts: AcmeOptions,
): Promise<number> {
  const { nameservers, unresolved } = await nameserversOf(zone.ns, addressMapOf(c.io.env.HOSTING_ADMIN_NS_ADDRESSES))
  // Unresolved ones make the command fail at its end (exit 1): said on stderr.
  for (const u of unresolved) c.io.err(c.say.t('cli.acme.nsUnresolved', { ns: u.name, reason: u.reason }))
  if (nameservers.length === 0) {
    c.io.err(c.say.t('cli.acme.noNameservers', { domain: zone.domain }))
    return EXIT.failed
  }
  for (const ns of nameservers) progress(c, c.say.t('cli.acme.waiting', { ns: ns.name, name: request.fqdn }))
  const late = await waitUntilServed(nameservers, {
    fqdn: request.fqdn,
    value: request.value,
    timeoutMs: opts.timeoutMs,
    intervalMs: opts.intervalMs,
    onServed: (ns, afterMs) =>
      progress(c, c.say.t('cli.acme.served', { ns: ns.name, seconds: Math.round(afterMs / 100) / 10 })),
  })
  const served = late.length === 0 && unresolved.length === 0
  if (c.json)
    c.io.out(
      JSON.stringify({
        ok: served,
        domain: zone.domain,
        name: request.fqdn,
        late: [...late.map((n) => n.name), ...unresolved.map((u) => u.name)],
      }),
    )
  if (late.length > 0)
    c.io.err(
      c.say.t('cli.acme.timedOut', {
        names: late.map((n) => n.name).join(', '),
        seconds: Math.round(opts.timeoutMs / 1000),
      }),
    )
  return served ? EXIT.done : EXIT.failed
}
