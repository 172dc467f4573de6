/**
 * The real ACME clients administrators run, as processes: certbot (its manual hooks) and lego
 * (its exec provider), each pointed at pebble with `hosting-admin acme` as its DNS-01 hooks.
 * Every run has a time limit (the process is killed at it) and its own temporary folder; the
 * certificate it got is read back from where the client keeps it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI_BIN } from './cli-process'

export interface ClientRun {
  code: number | null
  /** stdout and stderr as they came, one text (certbot prints its hook reports on either). */
  output: string
  /** Killed at the time limit. */
  timedOut: boolean
}

/** Processes still running, so that a test's afterAll can end them. */
const running = new Set<ChildProcess>()

export function killClients(): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

function runClient(command: string, args: string[], env: NodeJS.ProcessEnv, limitMs: number): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    let output = ''
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, limitMs)
    child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')))
    child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')))
    child.once('close', (code) => {
      clearTimeout(timer)
      running.delete(child)
      resolve({ code, output, timedOut })
    })
  })
}

/**
 * A word for `sh -c`, quoted only when it must be: certbot looks the hook's first word up on PATH
 * as written, quotes and all, before it runs the hook.
 */
const quoted = (s: string) => (/^[\w./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/** The environment of a client run: ours, in English, without whatever `drop` names. */
function envOf(extra: NodeJS.ProcessEnv, drop: string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'C', LC_ALL: '', ...extra }
  for (const name of drop) delete env[name]
  return env
}

export interface HookOptions {
  /** `hosting-admin`'s own options for every hook run: --account, --data-dir, --timeout, … */
  cliArgs: string[]
  /** Passed to the client and through it to the hooks (HOSTING_ADMIN_NS_ADDRESSES, …). */
  env: NodeJS.ProcessEnv
  /** Variables removed from the client's (and so the hooks') environment, e.g. DBUS_SESSION_BUS_ADDRESS. */
  dropEnv?: string[]
  limitMs: number
}

export interface Issued {
  run: ClientRun
  /** The certificate's file (the leaf first), when the client wrote one. */
  certificateFile: string | undefined
  /** The client's own folder; `remove` deletes it. */
  folder: string
  remove(): void
}

/** The command line of a hook: this Node running the built command. */
const hookCommand = (verb: string, cliArgs: string[]) =>
  [process.execPath, CLI_BIN, 'acme', verb, ...cliArgs].map(quoted).join(' ')

/**
 * `certbot certonly --manual` for `names` (the first names the certificate), its hooks `acme auth`
 * and `acme cleanup`, everything of certbot's in a temporary folder; certbot trusts pebble's
 * listener through REQUESTS_CA_BUNDLE.
 */
export async function certbotIssue(
  server: { directory: string; caFile: string },
  names: string[],
  hooks: HookOptions,
): Promise<Issued> {
  const folder = mkdtempSync(join(tmpdir(), 'certbot-'))
  const certName = names[0]!.replace(/^\*\./, '')
  const args = [
    'certonly',
    '--manual',
    '--preferred-challenges',
    'dns',
    '--manual-auth-hook',
    hookCommand('auth', hooks.cliArgs),
    '--manual-cleanup-hook',
    hookCommand('cleanup', hooks.cliArgs),
    '--server',
    server.directory,
    '--config-dir',
    join(folder, 'config'),
    '--work-dir',
    join(folder, 'work'),
    '--logs-dir',
    join(folder, 'logs'),
    '--agree-tos',
    '--register-unsafely-without-email',
    '--non-interactive',
    '--cert-name',
    certName,
    ...names.flatMap((n) => ['-d', n]),
  ]
  const run = await runClient(
    'certbot',
    args,
    envOf({ REQUESTS_CA_BUNDLE: server.caFile, ...hooks.env }, hooks.dropEnv ?? []),
    hooks.limitMs,
  )
  const file = join(folder, 'config', 'live', certName, 'cert.pem')
  return {
    run,
    certificateFile: existsSync(file) ? file : undefined,
    folder,
    remove: () => rmSync(folder, { recursive: true, force: true }),
  }
}

/**
 * `lego --dns exec … run` for `names`, its exec program a wrapper that runs
 * `hosting-admin acme "$1" "$2" "$3"` (as docs/command-line.md's), lego's own propagation check asking only
 * the loopback nameserver `resolver`; lego trusts pebble's listener through LEGO_CA_CERTIFICATES.
 */
export async function legoIssue(
  server: { directory: string; caFile: string },
  names: string[],
  resolver: string,
  hooks: HookOptions,
): Promise<Issued> {
  const folder = mkdtempSync(join(tmpdir(), 'lego-'))
  const wrapper = join(folder, 'lego-hosting-admin')
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${[process.execPath, CLI_BIN, 'acme'].map(quoted).join(' ')} "$1" "$2" "$3" ${hooks.cliArgs.map(quoted).join(' ')}\n`,
  )
  chmodSync(wrapper, 0o700)
  const path = join(folder, '.lego')
  const args = [
    '--server',
    server.directory,
    '--accept-tos',
    '--email',
    'certs@example.org',
    '--path',
    path,
    '--dns',
    'exec',
    '--dns.resolvers',
    resolver,
    // lego would otherwise ask each of the zone's nameservers on port 53 at their public
    // addresses; the hook itself has waited until every one of them serves the value.
    '--dns.disable-cp',
    ...names.flatMap((n) => ['-d', n]),
    'run',
  ]
  const env = {
    LEGO_CA_CERTIFICATES: server.caFile,
    EXEC_PATH: wrapper,
    EXEC_PROPAGATION_TIMEOUT: '60',
    EXEC_POLLING_INTERVAL: '1',
    EXEC_SEQUENCE_INTERVAL: '1',
    ...hooks.env,
  }
  const run = await runClient('lego', args, envOf(env, hooks.dropEnv ?? []), hooks.limitMs)
  const file = join(path, 'certificates', `${names[0]!.replace(/^\*/, '_')}.crt`)
  return {
    run,
    certificateFile: existsSync(file) ? file : undefined,
    folder,
    remove: () => rmSync(folder, { recursive: true, force: true }),
  }
}

/** The names a certificate file's (first) certificate covers, from its subjectAltName, sorted. */
export function namesCovered(file: string): { names: string[]; certificate: X509Certificate } {
  const certificate = new X509Certificate(readFileSync(file))
  const names = (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((e) => e.startsWith('DNS:'))
    .map((e) => e.slice(4))
    .sort()
  return { names, certificate }
}
