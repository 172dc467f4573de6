/**
 * The service's dynamic DNS update address, as its users' routers and updaters call it (it is not
 * part of the API, has no key, and takes the domain's dynamic DNS password in its query):
 *
 *   GET <address>?d=<domain>&p=<password>&h=<host>&i=<IPv4>   updates the host's A record
 *   GET <address>?ip                                          answers the caller's address
 *
 * It answers plain text holding `status=<n>`: 0 is done. The other codes, as its users' updaters
 * document them (tests/fixtures/live/README.md): 1 a bad request, 2 a bad domain or password,
 * 3 a bad address, 4 the password does not match, 5 the database server busy, 8 no record to
 * update, 9 another error, 503 an overload from repeated access.
 */
export const LIVE_DDNS_URL = 'https://dyn.value-domain.com/cgi-bin/dyn.fcg'

/** The update address of an account: its own setting, else the live one. */
export const ddnsUrlOf = (profile: { ddnsUrl?: string | undefined }): string => profile.ddnsUrl || LIVE_DDNS_URL

/** Done, or refused with the service's status and reason line, or not sent (`reason` says why). */
export type DdnsSent = { ok: true; status: 0 } | { ok: false; status?: number | undefined; reason?: string | undefined }

/** The codes the catalogue words (ddns.status.N); any other is "another error" with its number. */
export const DDNS_KNOWN_STATUSES = [0, 1, 2, 3, 4, 5, 8, 9, 503] as const

export function ddnsUpdateUrl(
  base: string,
  q: { domain: string; password: string; host?: string | undefined; ip?: string | undefined },
): string {
  const url = new URL(base)
  url.searchParams.set('d', q.domain)
  url.searchParams.set('p', q.password)
  if (q.host) url.searchParams.set('h', q.host)
  if (q.ip) url.searchParams.set('i', q.ip)
  return url.toString()
}

/** The address that answers the caller's own: `<address>?ip`. */
export const ddnsWhoAmIUrl = (base: string): string => `${base}?ip`

/** The status code in the service's answer, or undefined when it holds none. */
export function ddnsStatusOf(text: string): number | undefined {
  const m = /status\s*=\s*(\d+)/i.exec(text)
  return m ? Number(m[1]) : undefined
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/
export const isIpv4 = (s: string): boolean => IPV4.test(s)
