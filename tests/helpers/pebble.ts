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
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { startOnFreePorts } from '../../support/free-port'

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
 * Starts pebble and resolves once both its listeners answer (at most `readyWithinMs`): pebble says
 * its directory is available before it binds its ports, and a port taken meanwhile by another
 * process ends it a moment after that (then it is started again on new ports, support/free-port.ts).
 * An answer over TLS from the throwaway CA's certificate is pebble's own, not another process's.
 * No random sleeps before validating, no rejected nonces, no authorization reused from an earlier
 * order (each run proves its names itself), a chain of root and one intermediate.
 */
export async function startPebble(opts: { dnsServer: string; readyWithinMs?: number }): Promise<Pebble> {
  const binary = onPath('pebble')
  if (!binary) throw new Error('pebble is not installed (Debian package "pebble")')
  const dir = mkdtempSync(join(tmpdir(), 'pebble-'))
  const readyWithinMs = opts.readyWithinMs ?? 20_000
  try {
    const { caFile, certFile, keyFile } = await makeListenerCertificate(dir)
    const ca = readFileSync(caFile, 'utf8')
    const configFile = join(dir, 'pebble-config.json')
    const started = await startOnFreePorts(async (free) => {
      const [listen, management, http, tls] = [await free(), await free(), await free(), await free()]
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
      const onData = (chunk: Buffer) => (output += chunk.toString('utf8'))
      child.stdout?.on('data', onData)
      child.stderr?.on('data', onData)
      /** Its exit code or signal once it has ended and all it printed is read. */
      let ended: string | undefined
      const closed = new Promise<void>((resolve) =>
        child.once('close', (code, signal) => {
          ended = String(code ?? signal)
          resolve()
        }),
      )
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        await closed
      }
      const directory = `https://127.0.0.1:${listen}/dir`
      const managed = `https://127.0.0.1:${management}/intermediates/0`
      const answers = () =>
        Promise.all([fetchText(directory, ca, 2_000), fetchText(managed, ca, 2_000)]).then(
          () => true,
          () => false,
        )
      const deadline = Date.now() + readyWithinMs
      for (;;) {
        if (ended !== undefined) {
          if (output.includes('address already in use')) return undefined
          throw new Error(`pebble ended (${ended}) before it was ready:\n${output}`)
        }
        if (output.includes('ACME directory available at') && (await answers())) break
        if (Date.now() > deadline) {
          await stop()
          throw new Error(`pebble was not ready in ${readyWithinMs} ms:\n${output}`)
        }
        await sleep(50)
      }
      return { directory, managed, output: () => output, stop }
    })
    return {
      directory: started.directory,
      caFile,
      intermediate: () => fetchText(started.managed, ca, 10_000),
      output: started.output,
      close: async () => {
        await started.stop()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
}
