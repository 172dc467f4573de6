/**
 * `ddns update`: a host's A record set through the service's dynamic DNS update address
 * (shared/service/ddns.ts), the way routers and home updaters do, with the domain's dynamic DNS password
 * read through the API at run time and kept in memory only (never printed, stored or logged; no
 * error carries the address, which holds it). With --every, the caller's address is looked up
 * each period and sent only when it changed, until the process is stopped (SIGINT, SIGTERM).
 */
import type { AccountView } from '@shared/accounts'
import { DDNS_KNOWN_STATUSES, ddnsUrlOf, isIpv4, type DdnsSent } from '@shared/service/ddns'
import { ddnsTargetFrom, detectDdnsAddress, sendDdnsUpdate, type DdnsTarget } from '../main/ddns/ddns-update'
import { BadInput, EXIT, Failed, type Context } from './context'
import { openSession } from './session'
import type { PayloadOf } from '@shared/ipc/contract'

/** The domain's update address and password (read through the API): only the updater's fallback holds them, in memory. */
export async function ddnsTargetOf(c: Context, account: AccountView, domain: string): Promise<DdnsTarget> {
  const r = await c.session.call('domains.dynamicdns.get', { accountId: account.id, domain })
  if (!r.ok) throw new Failed(r.error)
  const target = ddnsTargetFrom(account, domain, r.value)
  if (!target) throw new Failed({ kind: 'validation', code: 'cli.ddns.off', params: { domain } })
  return target
}

function sentText(c: Context, sent: DdnsSent, name: string, ip: string): string {
  if (sent.ok) return c.say.t('cli.ddns.updated', { name, ip })
  if (sent.status === undefined) return c.say.t('cli.ddns.notSent', { name, reason: sent.reason ?? 'unknown' })
  const known = DDNS_KNOWN_STATUSES.some((s) => s === sent.status) ? sent.status : 9
  const said = { name, status: sent.status, meaning: c.say.code(`ddns.status.${known}`) }
  return sent.reason
    ? c.say.t('cli.ddns.refusedReason', { ...said, reason: sent.reason })
    : c.say.t('cli.ddns.refused', said)
}

export interface DdnsOptions {
  host: string | undefined
  ip: string | undefined
  everyMs: number | undefined
}

/**
 * One update, sent by the services of the open session (this process's own, or the running app's
 * through its door), which read the password and record the update in history as it was answered.
 */
export async function updateOnce(c: Context, account: AccountView, domain: string, opts: DdnsOptions): Promise<number> {
  const ip = opts.ip ?? (await detectOrFail(c, ddnsUrlOf(account)))
  const r = await c.session.call('ddns.send', { accountId: account.id, domain, host: opts.host, ip })
  if (!r.ok) throw new Failed(r.error)
  const sent = r.value
  const name = opts.host ? `${opts.host}.${domain}` : domain
  if (c.json)
    c.io.out(
      JSON.stringify({
        ok: sent.ok,
        domain,
        host: opts.host ?? '@',
        ip,
        ...(sent.ok ? {} : { status: sent.status, reason: sent.reason }),
      }),
    )
  const line = sentText(c, sent, name, ip)
  if (sent.ok) {
    if (!c.json) c.io.out(line)
  } else c.io.err(line)
  return sent.ok ? EXIT.done : EXIT.failed
}

async function detectOrFail(c: Context, base: string): Promise<string> {
  const found = await detectDdnsAddress(base, c.io.signal)
  if (!found.ok) throw new Failed({ kind: 'network', code: 'cli.ddns.noAddress', params: { reason: found.reason } })
  return found.ip
}

/**
 * Every period: the caller's address looked up and sent when it differs from the last one sent.
 * Runs with the data folder free (the app may run meanwhile); each update is added to the app's
 * history when the folder is free at that moment, else said on stderr.
 */
export async function updateEvery(c: Context, t: DdnsTarget, opts: DdnsOptions & { everyMs: number }): Promise<number> {
  const name = opts.host ? `${opts.host}.${t.domain}` : t.domain
  let lastSent: string | undefined
  const signal = c.io.signal
  while (!signal?.aborted) {
    const found = opts.ip ? { ok: true as const, ip: opts.ip } : await detectDdnsAddress(t.base, signal)
    if (signal?.aborted) break
    if (!found.ok) c.io.err(c.say.t('cli.ddns.noAddressYet', { reason: found.reason }))
    else if (found.ip === lastSent) c.io.err(c.say.t('cli.ddns.unchanged', { name, ip: found.ip }))
    else {
      const sent = await sendWhenFree(
        c,
        t,
        { accountId: t.accountId, domain: t.domain, host: opts.host, ip: found.ip },
        signal,
      )
      if (signal?.aborted) break
      const line = sentText(c, sent, name, found.ip)
      if (sent.ok) {
        lastSent = found.ip
        c.io.out(
          c.json
            ? JSON.stringify({
                ok: true,
                domain: t.domain,
                host: opts.host ?? '@',
                ip: found.ip,
                at: new Date().toISOString(),
              })
            : line,
        )
      } else c.io.err(line)
      // A password or domain the service refuses will not start working by itself.
      if (!sent.ok && (sent.status === 2 || sent.status === 4)) return EXIT.failed
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, opts.everyMs)
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
    })
  }
  return EXIT.done
}

/**
 * Sent by the services of a session opened for it (recorded in history there); when none can be
 * opened at that moment, sent from here with the password this updater holds, and said not to be in
 * history. A refusal of the session's call is said, and counts as not sent.
 */
async function sendWhenFree(
  c: Context,
  t: DdnsTarget,
  update: PayloadOf<'ddns.send'>,
  signal: AbortSignal | undefined,
): Promise<DdnsSent> {
  const opened = await openSession(c.dataDir, c.storeWorkerUrl ? { storeWorkerUrl: c.storeWorkerUrl } : {})
  if (!opened.ok) {
    const sent = await sendDdnsUpdate(t, update.host, update.ip, signal)
    c.io.err(c.say.t('cli.ddns.notInHistory'))
    return sent
  }
  try {
    const r = await opened.session.call('ddns.send', update)
    if (r.ok) return r.value
    c.io.err(c.say.error(r.error))
    return { ok: false, reason: r.error.code }
  } finally {
    await opened.session.close()
  }
}

export function ddnsOptionsOf(
  c: Context,
  v: { host?: string | undefined; ip?: string | undefined; detect?: boolean | undefined },
  everyMs: number | undefined,
): DdnsOptions {
  if (v.ip !== undefined && v.detect) throw BadInput.of(c.say, 'cli.ddns.ipOrDetect')
  if (v.ip !== undefined && !isIpv4(v.ip)) throw BadInput.of(c.say, 'cli.ddns.badIp', { ip: v.ip })
  if (
    v.host !== undefined &&
    !/^(\*|@|[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*)$/.test(v.host)
  )
    throw BadInput.of(c.say, 'cli.ddns.badHost', { host: v.host })
  return { host: v.host === '@' ? undefined : v.host, ip: v.ip, everyMs }
}
