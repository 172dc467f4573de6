/**
 * What a write acts on, as one string: the parameters that name the thing (a domain, a server,
 * a host name...), not the ones that say what to do with it. The app sends at most one write per
 * account, operation and target at a time.
 */
const IDENTITY = ['kind', 'webid', 'vipid', 'domain', 'transferorderid', 'hostname', 'webname', 'sld', 'tld', 'servers'] as const

const text = (v: unknown): string => (Array.isArray(v) ? v.map(text).join(',') : typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v))

export function targetOf(params: Record<string, unknown>): string {
  const parts = IDENTITY.filter((k) => params[k] !== undefined).map((k) => `${k}=${text(params[k])}`)
  return parts.length ? parts.join('&') : 'account'
}

/** How an item is named to the user when the renderer gave no label. */
export function defaultLabel(params: Record<string, unknown>): string {
  if (params.domain !== undefined) return text(params.domain)
  if (params.sld !== undefined && params.tld !== undefined) return `${text(params.sld)}.${text(params.tld)}`
  for (const k of ['hostname', 'webname', 'webid', 'vipid', 'servers'] as const) if (params[k] !== undefined) return text(params[k])
  return targetOf(params)
}
