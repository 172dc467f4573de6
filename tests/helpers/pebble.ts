/**
 * Pebble, Let's Encrypt's test CA (Debian's `pebble` package), on loopback for the tests of the
 * real ACME clients. Debian ships the binary without pebble's test certificates, so a throwaway
 * CA and a certificate for 127.0.0.1 are made with openssl for its HTTPS listener; clients trust
 * that CA (`caFile`). Its DNS-01 validation asks only `dnsServer`, never the machine's resolver.
 * Everything it needs lives in one temporary folder, removed by `close`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:https'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The full path of a program on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, program)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not in this folder
    }
  }
  return undefined
}

/** A loopback port free at this moment (the system picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

export interface Pebble {
  /** The ACME directory, `https://127.0.0.1:<port>/dir`. */
  directory: string
  /** The CA (PEM file) that signed the HTTPS listener's certificate: what clients must trust. */
  caFile: string
  /** The issuing (intermediate) certificate of what pebble issues now, PEM. */
  intermediate(): Promise<string>
  /** Everything pebble printed so far (what it validated, and how). */
  output(): string
  close(): Promise<void>
}

/** An HTTPS GET trusting only `ca`; the body as text. */
function fetchText(url: string, ca: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = get(url, { ca, timeout: timeoutMs }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
      )
    })
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer in ${timeoutMs} ms`)))
    req.on('error', reject)
  })
}

/** The CA and the listener's certificate (127.0.0.1 and localhost), made by openssl in `dir`. */
async function makeListenerCertificate(dir: string): Promise<{ caFile: string; certFile: string; keyFile: string }> {
  const caFile = join(dir, 'listener-ca.pem')
  const caKey = join(dir, 'listener-ca.key')
  const certFile = join(dir, 'listener.pem')
  const keyFile = join(dir, 'listener.key')
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2']
  await run(
    'openssl',
    [
      'req',
      '-x509',
      ...ec,
      '-subj',
      '/CN=hosting-admin test listener CA',
      '-keyout',
      caKey,
      '-out',
      caFile,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    ],
    { timeout: 20_000 },
  )
  await run(
    'openssl',
    [
      'req',
      '-x509',
      '-CA',
      caFile,
      '-CAkey',
      caKey,
      ...ec,
      '-subj',
      '/CN=localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-addext',
      'basicConstraints=critical,CA:FALSE',
      '-addext',
      'extendedKeyUsage=serverAuth',
    ],
    { timeout: 20_000 },
  )
  return { caFile, certFile, keyFile }
}

/**
 * Starts pebble and resolves once it says its directory is available (at most `readyWithinMs`).
 * No random sleeps before validating, no rejected nonces, no authorization reused from an earlier
 * order (each run proves its names itself), a chain of root and one intermediate.
 */
export async function startPebble(opts: { dnsServer: string; readyWithinMs?: number }): Promise<Pebble> {
  const binary = onPath('pebble')
  if (!binary) throw new Error('pebble is not installed (Debian package "pebble")')
  const dir = mkdtempSync(join(tmpdir(), 'pebble-'))
  const { caFile, certFile, keyFile } = await makeListenerCertificate(dir)
  const [listen, management, http, tls] = [await freePort(), await freePort(), await freePort(), await freePort()]
  const configFile = join(dir, 'pebble-config.json')
  writeFileSync(
    configFile,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: certFile,
        privateKey: keyFile,
        // Used only by HTTP-01 and TLS-ALPN-01, which these tests do not ask for.
        httpPort: http,
        tlsPort: tls,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  )
  const child: ChildProcess = spawn(binary, ['-config', configFile, '-dnsserver', opts.dnsServer], {
    env: {
      ...process.env,
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_WFE_NONCEREJECT: '0',
      PEBBLE_AUTHZREUSE: '0',
      PEBBLE_CHAIN_LENGTH: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const ca = readFileSync(caFile, 'utf8')
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`pebble was not ready in ${opts.readyWithinMs ?? 20_000} ms:\n${output}`)),
        opts.readyWithinMs ?? 20_000,
      )
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8')
        if (output.includes('ACME directory available at')) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout?.on('data', onData)
      child.stderr?.on('data', onData)
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`pebble ended (${code ?? signal}) before it was ready:\n${output}`))
      })
    })
  } catch (err) {
    await close()
    throw err
  }
  return {
    directory: `https://127.0.0.1:${listen}/dir`,
    caFile,
    intermediate: () => fetchText(`https://127.0.0.1:${management}/intermediates/0`, ca, 10_000),
    output: () => output,
    close,
  }
}
