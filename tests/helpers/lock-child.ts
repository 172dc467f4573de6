/**
 * A process that takes a data folder's lock (src/main/base/data-lock.ts) as the app or the command
 * does, and writes its journal, when told, line by line on stdin; it answers each order with
 * one JSON line on stdout: `lock-child <dir> <app|cli>`, bundled and started by the tests of
 * races and crashes (tests/helpers/child-processes.ts).
 *
 * Orders: `take`, `door <socket> <token>`, `journal <n>` (the runner's start: read and rewrite
 * the journal, then n job lines of its own), `append <n>` (n more lines, without the rewrite),
 * `release`, `exit`.
 */
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { acquireDataLock, type DataLock } from '../../src/main/base/data-lock'
import { Journal } from '../../src/main/jobs/ledger/journal-file'
import type { JobView } from '@shared/jobs'

const [dir, whoArg] = process.argv.slice(2)
if (!dir || (whoArg !== 'app' && whoArg !== 'cli')) throw new Error('usage: lock-child <dir> <app|cli>')
const who: 'app' | 'cli' = whoArg

let lock: DataLock | undefined
let journal: Journal | undefined
let written = 0
const say = (m: object) => process.stdout.write(`${JSON.stringify(m)}\n`)
const codeOf = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown'

const jobLine = (id: string): JobView => ({
  id,
  accountId: 'a',
  accountName: 'A',
  operation: 'domains.dns.set',
  confirm: false,
  status: 'done',
  createdAt: new Date().toISOString(),
  concurrency: 1,
  items: [],
})

/** Appends n job lines named after this process, reporting those written and the first refusal. */
async function appendLines(n: number): Promise<object> {
  const ids: string[] = []
  if (!journal) return { ids, code: 'noLock' }
  for (let i = 0; i < n; i++) {
    const id = `${process.pid}-${++written}`
    try {
      await journal.append({ t: 'job', job: jobLine(id) })
      ids.push(id)
    } catch (err) {
      return { ids, code: codeOf(err) }
    }
  }
  return { ids }
}

async function order(line: string): Promise<void> {
  const [verb, ...args] = line.trim().split(' ')
  if (verb === 'take') {
    const r = await acquireDataLock(dir!, who, { waitForCliMs: 0 })
    if (r.ok) {
      lock = r.lock
      journal = new Journal(join(dir!, 'journal.jsonl'), r.lock)
    }
    say(
      r.ok
        ? { t: 'took', ok: true, pid: process.pid, unkept: r.unkept, reentered: r.reentered ?? false }
        : { t: 'took', ok: false, pid: process.pid, heldBy: r.heldBy },
    )
  } else if (verb === 'door') {
    say({ t: 'door', ok: (await lock?.advertiseDoor({ socket: args[0]!, token: args[1]! })) ?? false })
  } else if (verb === 'journal') {
    // As the runner starts: every job read, then the journal rewritten with them.
    let compacted: string = 'ok'
    if (journal) {
      try {
        await journal.compact(await journal.load())
      } catch (err) {
        compacted = codeOf(err)
      }
    } else compacted = 'noLock'
    say({ t: 'journal', compacted, ...(await appendLines(Number(args[0] ?? 1))) })
  } else if (verb === 'append') {
    say({ t: 'append', ...(await appendLines(Number(args[0] ?? 1))) })
  } else if (verb === 'release') {
    await journal?.close()
    await lock?.release()
    say({ t: 'released' })
  } else if (verb === 'exit') {
    process.exit(0)
  }
}

// One order at a time, in order.
let queue = Promise.resolve()
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue
    .then(() => order(line))
    .catch((err: unknown) => {
      say({ t: 'error', code: codeOf(err) })
    })
})
process.stdin.on('end', () => process.exit(0))
say({ t: 'ready', pid: process.pid })
