/**
 * Real processes driven line by line: a child program (lock-child.ts takes a data folder's lock
 * and writes its journal; team-child.ts holds team leases) is bundled once with esbuild, so that
 * many can start at once on a small machine, then each process is sent orders on stdin and its
 * JSON answers on stdout are read with the answer's schema. Every answer is awaited with a bound.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { z } from 'zod'

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url))

/** A child program as one CommonJS file; `external` modules (native ones) are required from the project's node_modules. */
function bundledOnce(name: string, external: string[]): () => Promise<string> {
  let bundled: Promise<string> | undefined
  return () => {
    bundled ??= (async () => {
      const outfile = join(mkdtempSync(join(tmpdir(), `${name}-`)), `${name}.cjs`)
      const entry = fileURLToPath(new URL(`./${name}.ts`, import.meta.url))
      await build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        external,
        logLevel: 'error',
      })
      return outfile
    })()
    return bundled
  }
}

export interface LineChild<A> {
  pid: number
  process: ChildProcess
  /** Sends an order and waits for the next answer of kind `t`. */
  ask(order: string, t: string, timeoutMs?: number): Promise<A>
  /** The next answer of kind `t` (already sent or still to come). */
  next(t: string, timeoutMs?: number): Promise<A>
  exited: Promise<number | null>
  kill9(): Promise<void>
}

/**
 * Spawns `program` under node and reads its answers. A line that is not JSON is passed over (a
 * library may print); a JSON line that does not fit `answer` fails every wait from then on.
 */
function spawnLineChild<A extends { t: string }>(
  program: string,
  args: string[],
  answer: z.ZodType<A>,
  opts: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): LineChild<A> {
  const child = spawn(process.execPath, [program, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: opts.env ?? process.env,
  })
  const answers: A[] = []
  const waiters: { t: string; resolve: (a: A) => void; reject: (e: Error) => void }[] = []
  let misread: Error | undefined
  let buffered = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      let json: unknown
      try {
        json = JSON.parse(line)
      } catch {
        continue
      }
      const read = answer.safeParse(json)
      if (!read.success) {
        misread = new Error(`process ${child.pid} answered ${line}: ${read.error.message}`)
        for (const w of waiters.splice(0)) w.reject(misread)
        continue
      }
      const w = waiters.findIndex((x) => x.t === read.data.t)
      if (w >= 0) waiters.splice(w, 1)[0]!.resolve(read.data)
      else answers.push(read.data)
    }
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const next = (t: string, timeoutMs = opts.timeoutMs) =>
    new Promise<A>((resolve, reject) => {
      const have = answers.findIndex((a) => a.t === t)
      if (have >= 0) return resolve(answers.splice(have, 1)[0]!)
      if (misread) return reject(misread)
      const timer = setTimeout(
        () => reject(new Error(`no "${t}" from process ${child.pid} in ${timeoutMs} ms`)),
        timeoutMs,
      )
      const settle = () => clearTimeout(timer)
      waiters.push({
        t,
        resolve: (a) => {
          settle()
          resolve(a)
        },
        reject: (e) => {
          settle()
          reject(e)
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

/** What lock-child.ts answers. */
const lockChildAnswer = z.object({
  t: z.string(),
  ok: z.boolean().optional(),
  pid: z.number().optional(),
  heldBy: z.object({ pid: z.number(), who: z.string() }).optional(),
  ids: z.array(z.string()).optional(),
  code: z.string().optional(),
  compacted: z.string().optional(),
  unkept: z.string().optional(),
  reentered: z.boolean().optional(),
})
export type ChildAnswer = z.infer<typeof lockChildAnswer>
export type LockChild = LineChild<ChildAnswer>

/** The lock child bundled (libsql, a native module, is left to node_modules). */
export const lockChildProgram = bundledOnce('lock-child', ['libsql'])

export async function startLockChild(dir: string, who: 'app' | 'cli'): Promise<LockChild> {
  return spawnLineChild(await lockChildProgram(), [dir, who], lockChildAnswer, {
    env: { ...process.env, NODE_PATH: NODE_MODULES },
    timeoutMs: 30_000,
  })
}

/** What team-child.ts answers. */
const teamChildAnswer = z.object({
  t: z.string(),
  ok: z.boolean().optional(),
  sent: z.boolean().optional(),
  fence: z.number().optional(),
  error: z.string().optional(),
  pid: z.number().optional(),
  heldBy: z.object({ member: z.string().nullish(), workstation: z.string().nullish(), state: z.string() }).optional(),
})
export type TeamChild = LineChild<z.infer<typeof teamChildAnswer>>

const teamChildProgram = bundledOnce('team-child', ['pg-native'])

/** A process holding team leases, once it has said it is ready. */
export async function startTeamChild(args: {
  host: string
  port: number
  member: string
  workstation: string
  sentFile: string
  leaseMs: number
}): Promise<TeamChild> {
  const child = spawnLineChild(
    await teamChildProgram(),
    [args.host, String(args.port), args.member, args.workstation, args.sentFile, String(args.leaseMs)],
    teamChildAnswer,
    { timeoutMs: 20_000 },
  )
  await child.next('ready')
  return child
}
