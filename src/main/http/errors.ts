/** What the HTTP client adds to the app's error model: redacting the key from outside text. */
import { secretForms } from '../log/redaction'

/** Removes every occurrence of the secret from a text, in each form it may take there (URL-encoded too). */
export function redact(text: string, secret: string): string {
  if (!secret) return text
  // Longest form first, so an encoded key is hidden whole.
  return secretForms(secret)
    .sort((a, b) => b.length - a.length)
    .reduce((out, form) => (form ? out.split(form).join('[redacted]') : out), text)
}
