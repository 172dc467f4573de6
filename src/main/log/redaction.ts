/**
 * What must never reach a log line, a diagnostics text or a file: the API keys this process
 * has seen, credentials in a URL and bearer tokens. Keys are learned as they are read or
 * stored (AccountService tells), so a key is redacted even where it appears unannounced.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi
const BEARER = /\b(bearer)\s+[^\s"',;]+/gi
/** Shorter secrets are not keys (and would redact ordinary words). */
const MIN_SECRET_LENGTH = 8

/**
 * The forms a secret takes in text: as it is, trimmed, and URL-encoded (a service or a proxy that
 * echoes the request URL writes the key with its / + = as %2F %2B %3D, which plain matching misses);
 * in lower and upper case (a service that folds what it quotes); and its bytes as hex (lower and
 * upper case) and as base64 (standard and URL-safe, with and without padding), as a debugging
 * proxy or a service that quotes the header it was sent may write it.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>()
  for (const s of [secret, secret.trim()]) {
    for (const cased of [s, s.toLowerCase(), s.toUpperCase()]) {
      forms.add(cased)
      forms.add(encodeURIComponent(cased))
      forms.add(encodeURIComponent(cased).replace(/%20/g, '+'))
    }
    const bytes = Buffer.from(s, 'utf8')
    const hex = bytes.toString('hex')
    const base64 = bytes.toString('base64')
    for (const encoded of [hex, hex.toUpperCase(), base64, base64.replace(/=+$/, ''), bytes.toString('base64url'), encodeURIComponent(base64)]) forms.add(encoded)
  }
  return [...forms]
}

export class Redactor {
  private readonly secrets = new Set<string>()

  /** A secret to hide from now on: its trimmed form too, as it is sent, and each as a URL would carry it. */
  add(secret: string): void {
    for (const s of secretForms(secret)) if (s.length >= MIN_SECRET_LENGTH) this.secrets.add(s)
  }

  redact(text: string): string {
    let out = text
    // Longest first, so a key that contains another is hidden whole.
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('[redacted]')
    return out.replace(URL_CREDENTIALS, '$1[redacted]@').replace(BEARER, '$1 [redacted]')
  }
}
