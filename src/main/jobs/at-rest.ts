/**
 * What of a write is written to disk (the journal), and what never is. The user's secrets (the
 * transfer code, the dynamic DNS password) are left out of everything written; the journal also
 * leaves out WHOIS contacts, personal data that a write carries but its record does not need.
 * To tell the request in the service's log after a restart, the journal keeps a hash of the body
 * that was sent, not the body.
 */
import { createHash } from 'node:crypto'

/** Members that are the user's secrets, wherever they are: never on disk. */
const SECRET_MEMBERS: ReadonlySet<string> = new Set(['authcode', 'password'])
/** Parameters a journal line does not keep (secrets, and the contacts of a registration, transfer or WHOIS change). */
const NOT_JOURNALED: ReadonlySet<string> = new Set([...SECRET_MEMBERS, 'contact'])

/** A value without the user's secrets, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_MEMBERS.has(k)).map(([k, v]) => [k, withoutSecrets(v)]))
}

/** A write's parameters as a journal line keeps them, and whether anything was left out. */
export function journaledParams(params: Readonly<Record<string, unknown>>): { params: Record<string, unknown>; complete: boolean } {
  const kept = Object.fromEntries(Object.entries(params).filter(([k]) => !NOT_JOURNALED.has(k)))
  return { params: kept, complete: Object.keys(kept).length === Object.keys(params).length }
}

/** A logged answer's text without the user's secrets (a domain's transfer code in a logged transfer-lock answer). */
export function loggedTextWithoutSecrets(text: string): string {
  try {
    return JSON.stringify(withoutSecrets(JSON.parse(text)))
  } catch {
    // Not JSON (cut short by the service): nothing of it is kept.
    return ''
  }
}

/** A JSON body as one canonical text: members sorted, so the same body always gives the same hash. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical)
  if (typeof v !== 'object' || v === null) return v
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(Reflect.get(v, k))]))
}

/** The hash a request body is known by in the journal (and compared with the service's logged one). */
export function bodyHash(body: string | undefined): string {
  let text = '{}'
  if (body) {
    try {
      text = JSON.stringify(canonical(JSON.parse(body)))
    } catch {
      text = body
    }
  }
  return createHash('sha256').update(text).digest('hex')
}

/** A write's parameters without the user's secrets, at any depth (what leaves main for another process). */
export function paramsWithoutSecrets(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => !SECRET_MEMBERS.has(k)).map(([k, v]) => [k, withoutSecrets(v)]))
}
