/** What the HTTP client adds to the app's error model: redacting the key from outside text. */

/** Removes every occurrence of the secret from a text. */
export function redact(text: string, secret: string): string {
  if (!secret) return text
  return text.split(secret).join('[redacted]')
}
