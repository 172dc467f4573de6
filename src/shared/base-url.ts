/**
 * The rule for account base URLs: https, or plain http only to a loopback address
 * (the local sandbox). Shared so the accounts form, the account store and the API
 * client apply the same rule.
 */
export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: string }

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h)
}

export function validateBaseUrl(raw: string): BaseUrlCheck {
  let u: URL
  try {
    u = new URL(raw.trim())
  } catch {
    return { ok: false, reason: 'is not a valid URL (example: https://api.example.com/v1)' }
  }
  if (u.username || u.password) return { ok: false, reason: 'must not contain a user name or password' }
  if (u.search || u.hash) return { ok: false, reason: 'must not contain a query or fragment' }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return { ok: false, reason: 'must use https (plain http is allowed only for a local sandbox on 127.0.0.1 or localhost)' }
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, reason: 'must start with https://' }
  return { ok: true, url: `${u.origin}${u.pathname.replace(/\/+$/, '')}` }
}
