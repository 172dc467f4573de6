/**
 * Real processes holding team leases (team-child.ts), bundled once with esbuild and driven line by
 * line; every answer is awaited with a bound.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const CHILD = fileURLToPath(new URL('./team-child.ts', import.meta.url))

let bundled: Promise<string> | undefined
function program(): Promise<string> {
  bundled ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'team-child-')), 'team-child.cjs')
    await build({ entryPoints: [CHILD], outfile, bundle: true, platform: 'node', format: 'cjs', external: ['pg-native'], logLevel: 'error' })
    return outfile
  })()
  return bundled
}

export type TeamChildAnswer = { t: string; ok?: boolean; sent?: boolean; fence?: number; error?: string; pid?: number; heldBy?: { member?: string; workstation?: string; state: string } }

export interface TeamChild {
  pid: number
  process: ChildProcess
  ask(order: string, t: string, timeoutMs?: number): Promise<TeamChildAnswer>
  exited: Promise<number | null>
  kill9(): Promise<void>
}

export async function startTeamChild(args: { host: string; port: number; member: string; workstation: string; sentFile: string; leaseMs: number }): Promise<TeamChild> {
  const child = spawn(process.execPath, [await program(), args.host, String(args.port), args.member, args.workstation, args.sentFile, String(args.leaseMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const answers: TeamChildAnswer[] = []
  const waiters: { t: string; resolve: (a: TeamChildAnswer) => void }[] = []
  let buffered = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      let answer: TeamChildAnswer
      try {
        answer = JSON.parse(line) as TeamChildAnswer
      } catch {
        continue
      }
      const w = waiters.findIndex((x) => x.t === answer.t)
      if (w >= 0) waiters.splice(w, 1)[0]!.resolve(answer)
      else answers.push(answer)
    }
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const next = (t: string, timeoutMs = 20_000) =>
    new Promise<TeamChildAnswer>((resolve, reject) => {
      const have = answers.findIndex((a) => a.t === t)
      if (have >= 0) return resolve(answers.splice(have, 1)[0]!)
      const timer = setTimeout(() => reject(new Error(`no "${t}" from process ${child.pid} in ${timeoutMs} ms`)), timeoutMs)
      waiters.push({
        t,
        resolve: (a) => {
          clearTimeout(timer)
          resolve(a)
        },
      })
      void exited.then(() => reject(new Error(`process ${child.pid} ended before "${t}"`)))
    })
  await next('ready')
  return {
    pid: child.pid!,
    process: child,
    ask(order, t, timeoutMs) {
      child.stdin!.write(`${order}\n`)
      return next(t, timeoutMs)
    },
    exited,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}
