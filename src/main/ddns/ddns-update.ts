/**
 * One dynamic DNS update through the service's update address (shared/service/ddns.ts), the way
 * routers and home updaters send it. Used by main's `ddns.send` channel (the command line's update,
 * sent and recorded by the services that hold the store, so nobody can record an update that was
 * not sent) and by the command line's own updater when no session can be opened. The password is
 * held in memory only; no error carries the address, which holds it.
 */
import { request } from 'undici'
import { ddnsStatusOf, ddnsUpdateUrl, ddnsUrlOf, ddnsWhoAmIUrl, isIpv4, type DdnsSent } from '@shared/service/ddns'

const TIMEOUT_MS = 15_000

export interface DdnsTarget {
  accountId: string
  domain: string
  /** The update address (the account's, else the live one). */
  base: string
  password: string
}

/**
 * Where a domain's updates go, from its dynamic DNS settings as read through the API; undefined
 * when dynamic DNS is off for it (or it has no password), which the caller says as `cli.ddns.off`.
 */
export function ddnsTargetFrom(
  account: { id: string; ddnsUrl?: string | undefined },
  domain: string,
  settings: { dynamicdns: number; password?: string | undefined; domainname?: string | undefined },
): DdnsTarget | undefined {
  if (settings.dynamicdns === 0 || !settings.password) return undefined
  const base = ddnsUrlOf(account)
  return { accountId: account.id, domain: settings.domainname || domain, base, password: settings.password }
}

/** The reason line the service answers after `status=<n>`, cut to one short line (it is the service's text, shown as it is). */
function reasonLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim())
  const at = lines.findIndex((l) => /status\s*=\s*\d+/i.test(l))
  const reason = lines.slice(at + 1).find((l) => l !== '')
  return reason ? reason.replace(/[^\x20-\x7e\u3000-\u30ff\u4e00-\u9fff]/g, '').slice(0, 200) : undefined
}

async function get(
  url: string,
  signal: AbortSignal | undefined,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS)
  try {
    const res = await request(url, {
      method: 'GET',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: { 'user-agent': 'hosting-admin-cli' },
    })
    const text = await res.body.text()
    if (res.statusCode !== 200) return { ok: false, reason: `HTTP ${res.statusCode}` }
    return { ok: true, text }
  } catch (err) {
    // Only the code: the message of a failed request may hold the address, and the address the password.
    const code =
      typeof err === 'object' && err !== null && 'code' in err
        ? String(err.code)
        : err instanceof Error
          ? err.name
          : 'unknown'
    return { ok: false, reason: code }
  }
}

/** The caller's address as the service sees it (`?ip`). */
export async function detectDdnsAddress(
  base: string,
  signal?: AbortSignal,
): Promise<{ ok: true; ip: string } | { ok: false; reason: string }> {
  const r = await get(ddnsWhoAmIUrl(base), signal)
  if (!r.ok) return r
  const ip = r.text.trim()
  return isIpv4(ip) ? { ok: true, ip } : { ok: false, reason: 'not an IPv4 address' }
}

export async function sendDdnsUpdate(
  t: DdnsTarget,
  host: string | undefined,
  ip: string,
  signal?: AbortSignal,
): Promise<DdnsSent> {
  const r = await get(ddnsUpdateUrl(t.base, { domain: t.domain, password: t.password, host, ip }), signal)
  if (!r.ok) return { ok: false, reason: r.reason }
  const status = ddnsStatusOf(r.text)
  if (status === 0) return { ok: true, status: 0 }
  const reason = reasonLine(r.text)
  return { ok: false, status, ...(reason ? { reason } : {}) }
}
