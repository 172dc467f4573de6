/**
 * Real processes that take a data folder's lock and write its journal (lock-child.ts), driven
 * line by line: each order's answer is awaited, bounded in time. The child is bundled once
 * (esbuild, libsql left to node_modules) so that many can start at once on a small machine.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const CHILD = fileURLToPath(new URL('./lock-child.ts', import.meta.url))
const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url))

let bundled: Promise<string> | undefined
/** The child as one CommonJS file (libsql, a native module, is required from the project's node_modules). */
export function lockChildProgram(): Promise<string> {
  bundled ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'lock-child-')), 'lock-child.cjs')
    await build({ entryPoints: [CHILD], outfile, bundle: true, platform: 'node', format: 'cjs', external: ['libsql'], logLevel: 'error' })
    return outfile
  })()
  return bundled
}

export type ChildAnswer = { t: string; ok?: boolean; pid?: number; heldBy?: { pid: number; who: string }; ids?: string[]; code?: string; compacted?: string; unkept?: string; reentered?: boolean }

export interface LockChild {
  pid: number
  process: ChildProcess
  /** Sends an order and waits for the next answer of kind `t`. */
  ask(order: string, t: string, timeoutMs?: number): Promise<ChildAnswer>
  /** The next answer of kind `t` (already sent or still to come). */
  next(t: string, timeoutMs?: number): Promise<ChildAnswer>
  exited: Promise<number | null>
  kill9(): Promise<void>
}

export async function startLockChild(dir: string, who: 'app' | 'cli'): Promise<LockChild> {
  const program = await lockChildProgram()
  const child = spawn(process.execPath, [program, dir, who], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_PATH: NODE_MODULES } })
  const answers: ChildAnswer[] = []
  const waiters: { t: string; resolve: (a: ChildAnswer) => void }[] = []
  let buffered = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk
    let at = buffered.indexOf('\n')
    while (at >= 0) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      at = buffered.indexOf('\n')
      let answer: ChildAnswer
      try {
        answer = JSON.parse(line) as ChildAnswer
      } catch {
        continue
      }
      const w = waiters.findIndex((x) => x.t === answer.t)
      if (w >= 0) waiters.splice(w, 1)[0]!.resolve(answer)
      else answers.push(answer)
    }
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const next = (t: string, timeoutMs = 30_000) =>
    new Promise<ChildAnswer>((resolve, reject) => {
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
  return {
    pid: child.pid!,
    process: child,
    next,
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
