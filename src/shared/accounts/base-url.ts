/**
 * The rule for account base URLs: https, or plain http only to a loopback address
 * (the local sandbox). Shared so the accounts form, the account store and the API
 * client apply the same rule. A refusal is a code the renderer puts in words.
 */
export const BASE_URL_CODES = [
  'baseUrl.notUrl',
  'baseUrl.credentials',
  'baseUrl.queryOrFragment',
  'baseUrl.httpsOnly',
  'baseUrl.scheme',
] as const
export type BaseUrlCode = (typeof BASE_URL_CODES)[number]

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; code: BaseUrlCode }

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h)
}

export function validateBaseUrl(raw: string): BaseUrlCheck {
  let u: URL
  try {
    u = new URL(raw.trim())
  } catch {
    return { ok: false, code: 'baseUrl.notUrl' }
  }
  if (u.username || u.password) return { ok: false, code: 'baseUrl.credentials' }
  if (u.search || u.hash) return { ok: false, code: 'baseUrl.queryOrFragment' }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) return { ok: false, code: 'baseUrl.httpsOnly' }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, code: 'baseUrl.scheme' }
  return { ok: true, url: `${u.origin}${u.pathname.replace(/\/+$/, '')}` }
}
