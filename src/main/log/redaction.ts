/**
 * What must never reach a log line, a diagnostics text or a file: the API keys this process
 * has seen, credentials in a URL and bearer tokens. Keys are learned as they are read or
 * stored (AccountService tells), so a key is redacted even where it appears unannounced.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi
const BEARER = /\b(bearer)\s+[^\s"',;]+/gi
/** Shorter secrets are not keys (and would redact ordinary words). */
const MIN_SECRET_LENGTH = 8

export class Redactor {
  private readonly secrets = new Set<string>()

  /** A secret to hide from now on (its trimmed form too, as it is sent). */
  add(secret: string): void {
    for (const s of [secret, secret.trim()]) if (s.length >= MIN_SECRET_LENGTH) this.secrets.add(s)
  }

  redact(text: string): string {
    let out = text
    // Longest first, so a key that contains another is hidden whole.
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('[redacted]')
    return out.replace(URL_CREDENTIALS, '$1[redacted]@').replace(BEARER, '$1 [redacted]')
  }
}
