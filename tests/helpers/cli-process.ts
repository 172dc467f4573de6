/**
 * Runs the built `hosting-admin` command (bin/hosting-admin.mjs) as a process of its own, the way
 * a script or a certbot hook runs it: asynchronously, so the sandbox and nameservers of the test
 * process keep answering meanwhile. `onErr` sees stderr as it comes (a test acts on a progress line).
 */
import { execFile, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'

export const CLI_BIN = resolve(__dirname, '../../bin/hosting-admin.mjs')

export interface Ran {
  code: number
  out: string
  err: string
}

export function runCli(
  args: string[],
  opts: {
    dataDir: string
    env?: NodeJS.ProcessEnv
    onErr?: (soFar: string) => void
    onOut?: (soFar: string, child: ChildProcess) => void
    onSpawn?: (child: ChildProcess) => void
    timeoutMs?: number
  },
): Promise<Ran> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      // The folder first: lego's raw mode ends its arguments with `-- <domain> <token> <key authorization>`.
      [CLI_BIN, '--data-dir', opts.dataDir, ...args],
      { env: { ...process.env, LANG: 'C', LC_ALL: '', ...opts.env }, timeout: opts.timeoutMs ?? 60_000 },
      (err, out, errText) =>
        done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out, err: errText }),
    )
    opts.onSpawn?.(child)
    let errSoFar = ''
    child.stderr?.on('data', (chunk: Buffer | string) => {
      errSoFar += String(chunk)
      opts.onErr?.(errSoFar)
    })
    let outSoFar = ''
    child.stdout?.on('data', (chunk: Buffer | string) => {
      outSoFar += String(chunk)
      opts.onOut?.(outSoFar, child)
    })
  })
}
