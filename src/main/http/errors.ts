/** What the HTTP client adds to the app's error model: redacting the key from outside text. */
import { MIN_SECRET_LENGTH, redactedWith, secretMatcher } from '../base/redaction'

/** Removes every occurrence of the secret from a text, in each form it may take there (percent-encoded in either case too). */
export function redact(text: string, secret: string): string {
  return redactedWith(text, secretMatcher([secret]))
}

/**
 * A function that redacts a key from every text of a decoded answer, at any depth (a service
 * or a proxy that echoes the request, the key in it, in a field of its answer: a logged
 * request, a message), changing the answer in place. A key shorter than a key can be (a
 * test's `k`) is left alone, since it would take letters out of the user's data.
 */
export function answerRedactor(secret: string): (answer: unknown) => void {
  const matcher = secret.trim().length >= MIN_SECRET_LENGTH ? secretMatcher([secret]) : undefined
  // Every form of the key is at least as long as the key trimmed: a shorter text cannot hold one.
  const shortest = secret.trim().length
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i]
        if (typeof v !== 'string') visit(v)
        else if (v.length >= shortest) value[i] = redactedWith(v, matcher)
      }
      return
    }
    // for...in over a parsed answer (a plain object, no inherited members): no array of entries per object, on lists of 100,000 items.
    for (const k in value) {
      const v: unknown = Reflect.get(value, k)
      if (typeof v !== 'string') visit(v)
      else if (v.length >= shortest) {
        const r = redactedWith(v, matcher)
        // defineProperty: a member named __proto__ (JSON.parse makes it an own one) is set as a member, not as a prototype.
        if (r !== v) Object.defineProperty(value, k, { value: r, writable: true, enumerable: true, configurable: true })
      }
    }
  }
  return (answer) => {
    if (matcher) visit(answer)
  }
}
