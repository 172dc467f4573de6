/**
 * A throwaway PostgreSQL cluster for the tests of team mode (issue 37): initdb in a temporary
 * folder, a free loopback port, its unix socket in the same folder, stopped (immediate) and removed
 * at the end. PostgreSQL refuses to run as root, so as root the cluster runs as an unprivileged
 * system user (`pgtest`, created if missing); otherwise as the current user. Every wait is bounded
 * (pg_ctl -w -t).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
  if (spawnSync('id', ['-u', PG_USER]).status !== 0) execFileSync('useradd', ['-r', '-M', '-s', '/usr/sbin/nologin', PG_USER])
  const uid = Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8' }).trim())
  return { uid, gid }
}

/** A port free on loopback now (taken by the cluster right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      const port = typeof a === 'object' && a !== null ? a.port : 0
      s.close(() => resolve(port))
    })
  })
}

export interface TestPostgres {
  host: string
  port: number
  user: string
  database: string
  /** Stops the server at once (as a crash would), keeping its folder. */
  stopServer(): void
  startServer(): void
  /** Stopped (immediate: no clean shutdown) and started again on the same port and folder. */
  restart(): void
  /** Every row of the database as SQL text (pg_dump), for the test that nothing secret is stored. */
  dump(): string
  /** Stops the server and removes its folder. */
  remove(): void
}

/** `password`: the superuser logs in with it (scram-sha-256), else no password is asked (trust). */
export async function startTestPostgres(opts: { password?: string } = {}): Promise<TestPostgres> {
  const bin = postgresBin()
  if (!bin) throw new Error('PostgreSQL 15 or later is not installed: run `bash scripts/setup.sh --test`')
  const owner = systemUser()
  const dir = mkdtempSync(join(tmpdir(), 'team-pg-'))
  if (owner) {
    chownSync(dir, owner.uid, owner.gid)
    chmodSync(dir, 0o700)
  }
  const data = join(dir, 'data')
  const port = await freePort()
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
    run('initdb', ['-D', data, '-A', 'scram-sha-256', '--pwfile', pwfile, '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'])
    rmSync(pwfile)
  } else run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`
  const startServer = () => void run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', WAIT_SECONDS, '-o', options, 'start'])
  const stopServer = () => void run('pg_ctl', ['-D', data, '-w', '-t', WAIT_SECONDS, '-m', 'immediate', 'stop'])
  startServer()
  let removed = false
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    stopServer,
    startServer,
    restart() {
      stopServer()
      startServer()
    },
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
