/**
 * What of a write is written to disk (the journal), and what never is. The user's secrets (the
 * transfer code, the dynamic DNS password) are left out of everything written; the journal also
 * leaves out WHOIS contacts, personal data that a write carries but its record does not need.
 * What the service answers (results, errors, logged answers) is reduced to what a job's record
 * needs (states, flags, ids, dates, codes) before it is written, whatever else it carries (the
 * contacts a WHOIS answer repeats); and any text of the service that is kept is checked against
 * every secret of the job first (a service error that repeats the transfer code it refused).
 * To tell the request in the service's log after a restart, the journal keeps a MAC of the body
 * that was sent (body-mac.ts), not the body.
 */
import { createHash } from 'node:crypto'
import { redactedWith, secretMatcher, type SecretMatcher } from '../../base/redaction'
import type { ErrorData } from '@shared/errors'

/** Members that are the user's secrets, wherever they are: never on disk. */
const SECRET_MEMBERS: ReadonlySet<string> = new Set(['authcode', 'password'])
/** Parameters a journal line does not keep (secrets, and the contacts of a registration, transfer or WHOIS change). */
const NOT_JOURNALED: ReadonlySet<string> = new Set([...SECRET_MEMBERS, 'contact'])

/** A value without the user's secrets, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !SECRET_MEMBERS.has(k))
      .map(([k, v]) => [k, withoutSecrets(v)]),
  )
}

/** A write's parameters as a journal line keeps them, and whether anything was left out. */
export function journaledParams(params: Readonly<Record<string, unknown>>): {
  params: Record<string, unknown>
  complete: boolean
} {
  const kept = Object.fromEntries(Object.entries(params).filter(([k]) => !NOT_JOURNALED.has(k)))
  return { params: kept, complete: Object.keys(kept).length === Object.keys(params).length }
}

/**
 * A logged answer's text without the user's secrets: their members (a domain's transfer code in
 * a logged transfer-lock answer), and every text that repeats one of the job's (a message
 * quoting the code it refused).
 */
export function loggedTextWithoutSecrets(text: string, secrets: readonly string[] = []): string {
  try {
    return JSON.stringify(textsWithoutJobSecrets(withoutSecrets(JSON.parse(text)), secrets))
  } catch {
    // Not JSON (cut short by the service): nothing of it is kept.
    return ''
  }
}

/** A JSON body as one canonical text: members sorted, so the same body always gives the same hash. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical)
  if (typeof v !== 'object' || v === null) return v
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, canonical(Reflect.get(v, k))]),
  )
}

/** A request body's canonical digest: what body-mac.ts keeps a MAC of (an older journal kept it as it is). */
export function bodyDigest(body: string | undefined): string {
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
  return Object.fromEntries(
    Object.entries(params)
      .filter(([k]) => !SECRET_MEMBERS.has(k))
      .map(([k, v]) => [k, withoutSecrets(v)]),
  )
}

/** Every secret a job's parameters carry (transfer codes, passwords), at any depth: what no text kept may repeat. */
export function secretsOf(params: ReadonlyArray<Readonly<Record<string, unknown>>>): string[] {
  const out = new Set<string>()
  const visit = (v: unknown, key?: string): void => {
    if (Array.isArray(v)) v.forEach((x) => visit(x))
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) visit(x, k)
    else if (
      key !== undefined &&
      SECRET_MEMBERS.has(key) &&
      (typeof v === 'string' || typeof v === 'number') &&
      String(v).trim()
    )
      out.add(String(v))
  }
  params.forEach((p) => visit(p))
  return [...out]
}

/** One matcher per list of a job's secrets: a job's many texts are checked against the same list. */
const matchers = new WeakMap<readonly string[], SecretMatcher | undefined>()

/** A text of the service with every secret of the job (in each form it may take) replaced. */
export function withoutJobSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text
  if (!matchers.has(secrets)) matchers.set(secrets, secretMatcher(secrets))
  return redactedWith(text, matchers.get(secrets))
}

/** A value with every text in it, at any depth, checked against the job's secrets (a new value; the one given is left as it is). */
export function textsWithoutJobSecrets(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value
  if (typeof value === 'string') return withoutJobSecrets(value, secrets)
  if (Array.isArray(value)) return value.map((v) => textsWithoutJobSecrets(v, secrets))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, textsWithoutJobSecrets(v, secrets)]))
}

/**
 * Members whose text a journal keeps of an answer: ids, dates, states, types and codes (a
 * domain's expiration date after a renewal, a request id). Other text (names, addresses, phone
 * numbers, e-mail addresses, zone records, messages) is not kept; numbers and flags are.
 */
const KEPT_TEXT = /(^|_)(id|date|datetime|status|state|type|code)$|(id|date)$|^(domainname|hostname)$/i

/** An answer (results, or a logged body) as the journal keeps it: states, flags and small numbers, ids, dates, codes. */
export function journaledResult(value: unknown, secrets: readonly string[], key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => journaledResult(v, secrets))
  if (typeof value === 'object' && value !== null) {
    const kept = Object.entries(value).flatMap(([k, v]): [string, unknown][] => {
      if (SECRET_MEMBERS.has(k) || k === 'contact') return []
      const reduced = journaledResult(v, secrets, k)
      return reduced === undefined ? [] : [[k, reduced]]
    })
    return Object.fromEntries(kept)
  }
  if (typeof value !== 'string') return value
  // A flag or a small number the service writes as text ("1", "3600"): no one's name or number.
  if (key !== undefined && (KEPT_TEXT.test(key) || /^-?\d{1,5}$/.test(value))) return withoutJobSecrets(value, secrets)
  return undefined
}

/** An error as the journal keeps it: its kind, code and ids; the service's words and every text parameter checked against the job's secrets. */
export function journaledError(error: ErrorData, secrets: readonly string[]): ErrorData {
  const text = (v: string | number): string | number => (typeof v === 'string' ? withoutJobSecrets(v, secrets) : v)
  const params = (p: Readonly<Record<string, string | number>> | undefined) =>
    p ? Object.fromEntries(Object.entries(p).map(([k, v]) => [k, text(v)])) : undefined
  const out: ErrorData = { ...error }
  if (error.params) out.params = params(error.params)
  if (error.serviceMessage !== undefined) out.serviceMessage = withoutJobSecrets(error.serviceMessage, secrets)
  if (error.issues) out.issues = error.issues.map((i) => ({ ...i, ...(i.params ? { params: params(i.params) } : {}) }))
  return out
}

/**
 * A logged answer's text as the journal keeps it: its results reduced as an answer is, its error
 * as its code and the service's message checked against the job's secrets. Not JSON (cut short by
 * the service): nothing of it is kept.
 */
export function journaledLoggedText(text: string, secrets: readonly string[]): string {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return ''
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ''
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(body)) {
    if (k === 'errors' && typeof v === 'object' && v !== null) {
      const code: unknown = Reflect.get(v, 'code')
      const message: unknown = Reflect.get(v, 'message')
      out.errors = {
        ...(typeof code === 'number' || typeof code === 'string' ? { code } : {}),
        ...(typeof message === 'string' ? { message: withoutJobSecrets(message, secrets) } : {}),
      }
    } else if (k === 'results') out.results = journaledResult(v, secrets)
    else if (k === 'request_id' && typeof v === 'string') out.request_id = v
  }
  return JSON.stringify(out)
}
