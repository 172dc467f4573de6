/**
 * A throwaway PostgreSQL cluster for the tests of team mode (issue 37): initdb in a temporary
 * folder, a free loopback port (support/free-port.ts), its unix socket in the same folder, stopped
 * (immediate) and removed at the end. PostgreSQL refuses to run as root, so as root the cluster
 * runs as an unprivileged system user (`pgtest`, created if missing); otherwise as the current
 * user. Every wait is bounded (pg_ctl -w -t). On request (issue 50) it speaks TLS with a throwaway
 * CA made by openssl, may refuse clear text (hostssl lines only), and listens on more addresses
 * than loopback.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startOnFreePorts } from './free-port'

const PG_USER = 'pgtest'
const WAIT_SECONDS = '30'

/** The newest installed server binaries (Debian keeps them under /usr/lib/postgresql/<major>/bin). */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const majors = readdirSync(root)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 15)
    .sort((a, b) => b - a)
  for (const m of majors) if (existsSync(join(root, String(m), 'bin', 'initdb'))) return join(root, String(m), 'bin')
  return undefined
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

function systemUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined
  if (spawnSync('id', ['-u', PG_USER]).status !== 0)
    execFileSync('useradd', ['-r', '-M', '-s', '/usr/sbin/nologin', PG_USER])
  const uid = Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8' }).trim())
  return { uid, gid }
}

/** The throwaway CAs of a cluster started with `tls`. */
export interface TestPostgresTls {
  /**
   * The CA that signed the server's certificate. The certificate names 127.0.0.1 and every
   * address of `listen` (IP addresses only, no DNS name: `localhost` is a host name mismatch).
   */
  caFile: string
  /** A CA that signed nothing of this server's: verify-full with it is a wrong CA file. */
  otherCaFile: string
}

export interface TestPostgresOptions {
  /** The superuser logs in with it (scram-sha-256), else no password is asked (trust). */
  password?: string
  /** TLS on (ssl=on, a certificate from a throwaway CA); `only`: clear text refused (hostssl lines only in pg_hba.conf). */
  tls?: { only?: boolean }
  /** More addresses to listen on besides 127.0.0.1 (e.g. the machine's own, to test a host that is not loopback). */
  listen?: string[]
  /** Each login written to the server's log (log_connections), for a test that a command did connect. */
  logConnections?: boolean
}

/** A throwaway CA and a server certificate signed by it for `ips`, and another CA that signed nothing; the server's key readable by `owner` only. */
function makeCertificates(
  dir: string,
  ips: string[],
  owner: { uid: number; gid: number } | undefined,
): TestPostgresTls & { certFile: string; keyFile: string } {
  const tls = join(dir, 'tls')
  mkdirSync(tls, { mode: 0o755 })
  const openssl = (args: string[]) => {
    const r = spawnSync('openssl', args, { encoding: 'utf8', timeout: 20_000 })
    if (r.status !== 0) throw new Error(`openssl failed (${r.status ?? r.signal}): ${r.stderr}`)
  }
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2']
  const ca = (name: string) => {
    const caFile = join(tls, `${name}.pem`)
    openssl([
      'req',
      '-x509',
      ...ec,
      '-subj',
      `/CN=hosting-admin test ${name}`,
      '-keyout',
      join(tls, `${name}.key`),
      '-out',
      caFile,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    ])
    return caFile
  }
  const caFile = ca('team-ca')
  const otherCaFile = ca('other-ca')
  const certFile = join(tls, 'server.pem')
  const keyFile = join(tls, 'server.key')
  const san = ips.map((ip) => `IP:${ip}`).join(',')
  openssl([
    'req',
    '-x509',
    '-CA',
    caFile,
    '-CAkey',
    join(tls, 'team-ca.key'),
    ...ec,
    '-subj',
    '/CN=team database',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-addext',
    `subjectAltName=${san}`,
    '-addext',
    'basicConstraints=critical,CA:FALSE',
    '-addext',
    'extendedKeyUsage=serverAuth',
  ])
  // PostgreSQL refuses a key that others may read.
  chmodSync(keyFile, 0o600)
  if (owner) {
    chownSync(keyFile, owner.uid, owner.gid)
    chownSync(certFile, owner.uid, owner.gid)
  }
  return { caFile, otherCaFile, certFile, keyFile }
}

export interface TestPostgres {
  host: string
  port: number
  user: string
  database: string
  /** Its CAs, when started with `tls`. */
  tls?: TestPostgresTls | undefined
  /** Stops the server at once (as a crash would), keeping its folder. */
  stopServer(): void
  startServer(): void
  /** Stopped (immediate: no clean shutdown) and started again on the same port and folder. */
  restart(): void
  /** The server's log so far. */
  serverLog(): string
  /** Every row of the database as SQL text (pg_dump), for the test that nothing secret is stored. */
  dump(): string
  /** Stops the server and removes its folder. */
  remove(): void
}

export async function startTestPostgres(opts: TestPostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBin()
  if (!bin) throw new Error('PostgreSQL 15 or later is not installed: run `bash scripts/setup.sh --test`')
  const owner = systemUser()
  const dir = mkdtempSync(join(tmpdir(), 'team-pg-'))
  if (owner) {
    chownSync(dir, owner.uid, owner.gid)
    chmodSync(dir, 0o700)
  }
  const data = join(dir, 'data')
  const logFile = join(dir, 'server.log')
  const serverLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')
  const run = (tool: string, args: string[]) => {
    const cmd = owner ? 'runuser' : join(bin, tool)
    const argv = owner ? ['-u', PG_USER, '--', join(bin, tool), ...args] : args
    const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir, env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 })
    if (r.status !== 0) throw new Error(`${tool} failed (${r.status ?? r.signal}): ${r.stderr}`)
    return r.stdout
  }
  const env = { ...process.env, ...(opts.password ? { PGPASSWORD: opts.password } : {}) }
  if (opts.password) {
    const pwfile = join(dir, 'pwfile')
    writeFileSync(pwfile, `${opts.password}\n`, { mode: 0o600 })
    if (owner) chownSync(pwfile, owner.uid, owner.gid)
    run('initdb', [
      '-D',
      data,
      '-A',
      'scram-sha-256',
      '--pwfile',
      pwfile,
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ])
    rmSync(pwfile)
  } else run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'])
  const addresses = ['127.0.0.1', ...(opts.listen ?? [])]
  let options = `-k ${dir} -c listen_addresses=${addresses.join(',')}`
  let tls: TestPostgresTls | undefined
  if (opts.tls || opts.listen?.length) {
    // Who may connect from where, and whether in clear text (host) or TLS only (hostssl).
    const method = opts.password ? 'scram-sha-256' : 'trust'
    const type = opts.tls?.only ? 'hostssl' : 'host'
    const hba = [`local all all ${method}`, ...addresses.map((a) => `${type} all all ${a}/32 ${method}`)].join('\n')
    const hbaFile = join(data, 'pg_hba.conf')
    writeFileSync(hbaFile, `${hba}\n`, { mode: 0o600 })
    if (owner) chownSync(hbaFile, owner.uid, owner.gid)
  }
  if (opts.logConnections) options += ' -c log_connections=on'
  if (opts.tls) {
    const made = makeCertificates(dir, addresses, owner)
    tls = { caFile: made.caFile, otherCaFile: made.otherCaFile }
    options += ` -c ssl=on -c ssl_cert_file=${made.certFile} -c ssl_key_file=${made.keyFile}`
  }
  const startOn = (port: number) =>
    void run('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', WAIT_SECONDS, '-o', `-p ${port} ${options}`, 'start'])
  const stopServer = () => void run('pg_ctl', ['-D', data, '-w', '-t', WAIT_SECONDS, '-m', 'immediate', 'stop'])
  const port = await startOnFreePorts(async (free) => {
    const tried = await free()
    const from = serverLog().length
    // The server's log says it (its messages are in English: initdb --locale=C).
    const taken = () => serverLog().slice(from).includes('Address already in use')
    try {
      startOn(tried)
    } catch (err) {
      if (taken()) return undefined
      throw err
    }
    // Listening on another of its addresses, it runs without the loopback one: not this server's port.
    if (taken()) {
      stopServer()
      return undefined
    }
    return tried
  })
  const startServer = () => startOn(port)
  let removed = false
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    tls,
    stopServer,
    startServer,
    restart() {
      stopServer()
      startServer()
    },
    serverLog,
    dump: () => run('pg_dump', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '--inserts', 'postgres']),
    remove() {
      if (removed) return
      removed = true
      try {
        run('pg_ctl', ['-D', data, '-w', '-t', WAIT_SECONDS, '-m', 'immediate', 'stop'])
      } catch {
        // Already stopped (a test stopped it on purpose).
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
