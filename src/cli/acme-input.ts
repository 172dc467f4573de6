/**
 * What certbot's manual hooks and lego's exec provider hand the ACME commands, checked before
 * anything is read or sent: the name must be a host name and the value a DNS-01 validation
 * value, so that nothing else (a newline starting a record of its own, which no cleanup would
 * remove) can reach the zone.
 *
 * - certbot: CERTBOT_DOMAIN (a wildcard's base name) and CERTBOT_VALIDATION.
 * - lego's exec provider: `present|cleanup <fqdn>. <value>`, or in its raw mode (EXEC_MODE=RAW)
 *   `present|cleanup -- <domain> <token> <key authorization>`, the value then being computed
 *   here as lego computes it.
 *
 * RFC 8555 section 8.4: the TXT value is the base64url (no padding) of the SHA-256 digest of the
 * key authorization, 43 characters; the key authorization is the token, a dot, and the
 * base64url of the account key's SHA-256 thumbprint (section 8.1); a token is base64url.
 */
import { createHash } from 'node:crypto'
import { BadInput, type Context } from './context'

export interface AcmeRequest {
  mode: 'add' | 'remove'
  /** The TXT record's full name, lower case, without the final dot. */
  fqdn: string
  value: string
}

const VALIDATION_VALUE = /^[A-Za-z0-9_-]{43}$/
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/
/** A label of a host name, the underscore allowed (_acme-challenge); ACME names are A-labels (ASCII). */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/

/** The name lower case without its final dot, or undefined when it is not a host name of two labels or more. */
export function hostNameOf(text: string): string | undefined {
  const name = text.toLowerCase().replace(/\.$/, '')
  if (name.length === 0 || name.length > 253) return undefined
  const labels = name.split('.')
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) ? name : undefined
}

export const isValidationValue = (text: string): boolean => VALIDATION_VALUE.test(text)

/** The TXT value of a key authorization (lego's dns01.GetRecord); undefined when it is not one for `token`. */
export function validationOfKeyAuthorization(token: string, keyAuthorization: string): string | undefined {
  if (!TOKEN.test(token) || !keyAuthorization.startsWith(`${token}.`)) return undefined
  if (!VALIDATION_VALUE.test(keyAuthorization.slice(token.length + 1))) return undefined
  return createHash('sha256').update(keyAuthorization).digest('base64url')
}

/** Shown in a refusal: what was given, escaped so that a newline or a control character shows as such; cut short. */
const shown = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)

/** What certbot's environment or lego's arguments ask for; a BadInput (exit 2, nothing sent) says what is wrong. */
export function acmeRequestOf(c: Context, verb: string | undefined, args: string[]): AcmeRequest {
  const host = (given: string, wildcardTolerated: boolean): string => {
    const name = hostNameOf(wildcardTolerated ? given.replace(/^\*\./, '') : given)
    if (!name) throw BadInput.of(c.say, 'cli.acme.badName', { name: shown(given) })
    return name
  }
  const value = (given: string): string => {
    if (!isValidationValue(given)) throw BadInput.of(c.say, 'cli.acme.badValue')
    return given
  }
  const fromLego = (mode: AcmeRequest['mode']): AcmeRequest => {
    if (args.length === 3) {
      // Raw mode: the domain (a wildcard's base name), the token and the key authorization.
      const [domain = '', token = '', keyAuthorization = ''] = args
      const computed = validationOfKeyAuthorization(token, keyAuthorization)
      if (!computed) throw BadInput.of(c.say, 'cli.acme.badKeyAuthorization')
      return { mode, fqdn: `_acme-challenge.${host(domain, true)}`, value: computed }
    }
    const [fqdn, given] = args
    if (!fqdn || !given || args.length !== 2) throw BadInput.of(c.say, 'cli.acme.needsValue')
    return { mode, fqdn: host(fqdn, false), value: value(given) }
  }
  const fromCertbot = (mode: AcmeRequest['mode']): AcmeRequest => {
    const domain = c.io.env.CERTBOT_DOMAIN
    const given = c.io.env.CERTBOT_VALIDATION
    if (!domain || !given) throw BadInput.of(c.say, 'cli.acme.needsValue')
    // certbot names a wildcard's base name (example.com for *.example.com); the star is tolerated too.
    return { mode, fqdn: `_acme-challenge.${host(domain, true)}`, value: value(given) }
  }
  if (verb === 'present') return fromLego('add')
  if (verb === 'auth') return fromCertbot('add')
  // lego names the record and value; certbot's cleanup hook has them in its environment.
  return args.length > 0 ? fromLego('remove') : fromCertbot('remove')
}
