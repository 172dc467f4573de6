/**
 * How a team connection is protected when nobody said (issue 50 point 5): TLS with the server's
 * certificate checked (verify-full) when a CA file is given, TLS at least (require) to any host
 * that is not this machine, clear text only to loopback or when asked for by name (`--unencrypted`
 * on the command line, "No encryption" in the window). Shared: the window's form offers the same
 * default as the command line takes.
 */
import type { TeamSslMode } from './index'

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/
/** ::1 however written (::1, 0:0:0:0:0:0:0:1, with leading zeros). */
const IPV6_LOOPBACK = /^(0{0,4}:){2,7}0{0,3}1$/

/** Whether `host` is this machine without a network between: 127.0.0.0/8, ::1, localhost, or a unix socket folder. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  if (h.startsWith('/')) return true
  // localhost only: a name under .localhost is loopback by RFC 6761, but not every resolver says so.
  if (h === 'localhost' || h === 'localhost.') return true
  if (IPV4.test(h)) return h.startsWith('127.')
  return IPV6_LOOPBACK.test(h) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/** The mode of a connection whose settings do not name one: verify-full with a CA file, clear text to loopback, else require. */
export function defaultSslMode(host: string, caFile: string | undefined): TeamSslMode {
  if (caFile) return 'verify-full'
  return isLoopbackHost(host) ? 'disable' : 'require'
}

export type SslChoice =
  { ok: true; mode: TeamSslMode } | { ok: false; problem: 'unencryptedWithTls' | 'caFileNeedsVerifyFull' }

/**
 * The mode the command line asked for: `--unencrypted` (clear text, by name), `--sslmode
 * require|verify-full`, `--ca-file` (verify-full), or none of them (defaultSslMode). Clear text
 * with a CA file or a TLS mode is a contradiction, and a CA file with `require` would be ignored
 * (require checks no certificate): both refused rather than guessed.
 */
export function chooseSslMode(o: {
  host: string
  caFile?: string | undefined
  sslmode?: 'require' | 'verify-full' | undefined
  unencrypted?: boolean | undefined
}): SslChoice {
  if (o.unencrypted)
    return o.caFile || o.sslmode ? { ok: false, problem: 'unencryptedWithTls' } : { ok: true, mode: 'disable' }
  if (o.sslmode === 'require' && o.caFile) return { ok: false, problem: 'caFileNeedsVerifyFull' }
  return { ok: true, mode: o.sslmode ?? defaultSslMode(o.host, o.caFile) }
}
