/**
 * `ddns update`: a host's A record set through the service's dynamic DNS update address
 * (shared/ddns.ts), the way routers and home updaters do, with the domain's dynamic DNS password
 * read through the API at run time and kept in memory only (never printed, stored or logged; no
 * error carries the address, which holds it). With --every, the caller's address is looked up
 * each period and sent only when it changed, until the process is stopped (SIGINT, SIGTERM).
 */
import { request } from 'undici'
import type { AccountView } from '../shared/accounts'
import { DDNS_KNOWN_STATUSES, ddnsStatusOf, ddnsUpdateUrl, ddnsUrlOf, ddnsWhoAmIUrl, isIpv4 } from '../shared/service/ddns'
import { BadInput, EXIT, Failed, type Context } from './context'
import { openSession, type Session } from './session'
import type { PayloadOf } from '../shared/ipc/contract'

const TIMEOUT_MS = 15_000

export interface DdnsTarget {
  accountId: string
  domain: string
  base: string
  password: string
}

/** The update address and password of a domain whose dynamic DNS is on. */
export async function ddnsTargetOf(c: Context, account: AccountView, domain: string): Promise<DdnsTarget> {
  const r = await c.session.call('domains.dynamicdns.get', { accountId: account.id, domain })
  if (!r.ok) throw new Failed(r.error)
  if (r.value.dynamicdns === 0 || !r.value.password) throw new Failed({ kind: 'validation', code: 'cli.ddns.off', params: { domain } })
  return { accountId: account.id, domain: r.value.domainname || domain, base: ddnsUrlOf(account), password: r.value.password }
}

type Sent = { ok: true; status: 0 } | { ok: false; status?: number; reason?: string }

/** The reason line the service answers after `status=<n>`, cut to one short line (it is the service's text, shown as it is). */
function reasonLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim())
  const at = lines.findIndex((l) => /status\s*=\s*\d+/i.test(l))
  const reason = lines.slice(at + 1).find((l) => l !== '')
  return reason ? reason.replace(/[^\x20-\x7e\u3000-\u30ff\u4e00-\u9fff]/g, '').slice(0, 200) : undefined
}

async function get(url: string, signal: AbortSignal | undefined): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS)
  try {
    const res = await request(url, { method: 'GET', signal: signal ? AbortSignal.any([signal, timeout]) : timeout, headers: { 'user-agent': 'hosting-admin-cli' } })
    const text = await res.body.text()
    if (res.statusCode !== 200) return { ok: false, reason: `HTTP ${res.statusCode}` }
    return { ok: true, text }
  } catch (err) {
    // Only the code: the message of a failed request may hold the address, and the address the password.
    const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : err instanceof Error ? err.name : 'unknown'
    return { ok: false, reason: code }
  }
}

/** The caller's address as the service sees it (`?ip`). */
async function detectAddress(base: string, signal?: AbortSignal): Promise<{ ok: true; ip: string } | { ok: false; reason: string }> {
  const r = await get(ddnsWhoAmIUrl(base), signal)
  if (!r.ok) return r
  const ip = r.text.trim()
  return isIpv4(ip) ? { ok: true, ip } : { ok: false, reason: 'not an IPv4 address' }
}

async function sendUpdate(t: DdnsTarget, host: string | undefined, ip: string, signal?: AbortSignal): Promise<Sent> {
  const r = await get(ddnsUpdateUrl(t.base, { domain: t.domain, password: t.password, host, ip }), signal)
  if (!r.ok) return { ok: false, reason: r.reason }
  const status = ddnsStatusOf(r.text)
  if (status === 0) return { ok: true, status: 0 }
  const reason = reasonLine(r.text)
  return { ok: false, status, ...(reason ? { reason } : {}) }
}

function sentText(c: Context, sent: Sent, name: string, ip: string): string {
  if (sent.ok) return c.say.t('cli.ddns.updated', { name, ip })
  if (sent.status === undefined) return c.say.t('cli.ddns.notSent', { name, reason: sent.reason ?? 'unknown' })
  const known = DDNS_KNOWN_STATUSES.some((s) => s === sent.status) ? sent.status : 9
  const said = { name, status: sent.status, meaning: c.say.code(`ddns.status.${known}`) }
  return sent.reason ? c.say.t('cli.ddns.refusedReason', { ...said, reason: sent.reason }) : c.say.t('cli.ddns.refused', said)
}

export interface DdnsOptions {
  host: string | undefined
  ip: string | undefined
  everyMs: number | undefined
}

/** One update, recorded in the app's history through the open session. */
export async function updateOnce(c: Context, t: DdnsTarget, opts: DdnsOptions): Promise<number> {
  const ip = opts.ip ?? (await detectOrFail(c, t))
  const sent = await sendUpdate(t, opts.host, ip, c.io.signal)
  const name = opts.host ? `${opts.host}.${t.domain}` : t.domain
  await recordIn(c, c.session, { accountId: t.accountId, domain: t.domain, host: opts.host ?? '@', ip, ok: sent.ok })
  if (c.json) c.io.out(JSON.stringify({ ok: sent.ok, domain: t.domain, host: opts.host ?? '@', ip, ...(sent.ok ? {} : { status: sent.status, reason: sent.reason }) }))
  const line = sentText(c, sent, name, ip)
  if (sent.ok) {
    if (!c.json) c.io.out(line)
  } else c.io.err(line)
  return sent.ok ? EXIT.done : EXIT.failed
}

async function detectOrFail(c: Context, t: DdnsTarget): Promise<string> {
  const found = await detectAddress(t.base, c.io.signal)
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
    const found = opts.ip ? { ok: true as const, ip: opts.ip } : await detectAddress(t.base, signal)
    if (signal?.aborted) break
    if (!found.ok) c.io.err(c.say.t('cli.ddns.noAddressYet', { reason: found.reason }))
    else if (found.ip === lastSent) c.io.err(c.say.t('cli.ddns.unchanged', { name, ip: found.ip }))
    else {
      const sent = await sendUpdate(t, opts.host, found.ip, signal)
      if (signal?.aborted) break
      await recordWhenFree(c, { accountId: t.accountId, domain: t.domain, host: opts.host ?? '@', ip: found.ip, ok: sent.ok })
      const line = sentText(c, sent, name, found.ip)
      if (sent.ok) {
        lastSent = found.ip
        c.io.out(c.json ? JSON.stringify({ ok: true, domain: t.domain, host: opts.host ?? '@', ip: found.ip, at: new Date().toISOString() }) : line)
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

type DdnsRecord = PayloadOf<'history.recordDdns'>

/** The update in the app's history (the contract's channel for the command line's own records); a refusal is said, the update stands. */
async function recordIn(c: Context, session: Session, entry: DdnsRecord): Promise<void> {
  const r = await session.call('history.recordDdns', entry)
  if (!r.ok) c.io.err(c.say.error(r.error))
}

async function recordWhenFree(c: Context, entry: DdnsRecord): Promise<void> {
  const opened = await openSession(c.dataDir)
  if (!opened.ok) {
    c.io.err(c.say.t('cli.ddns.notInHistory'))
    return
  }
  try {
    await recordIn(c, opened.session, entry)
  } finally {
    await opened.session.close()
  }
}

export function ddnsOptionsOf(c: Context, v: { host?: string | undefined; ip?: string | undefined; detect?: boolean | undefined }, everyMs: number | undefined): DdnsOptions {
  if (v.ip !== undefined && v.detect) throw BadInput.of(c.say, 'cli.ddns.ipOrDetect')
  if (v.ip !== undefined && !isIpv4(v.ip)) throw BadInput.of(c.say, 'cli.ddns.badIp', { ip: v.ip })
  if (v.host !== undefined && !/^(\*|@|[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*)$/.test(v.host)) throw BadInput.of(c.say, 'cli.ddns.badHost', { host: v.host })
  return { host: v.host === '@' ? undefined : v.host, ip: v.ip, everyMs }
}
