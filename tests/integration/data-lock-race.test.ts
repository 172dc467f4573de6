/**
 * Many processes starting on one data folder at the same moment after a crash (the holder killed
 * with kill -9, its holder file and lock file left behind): in every round exactly one takes the
 * folder, and only that one reads and rewrites the journal (as the runner's start does) and
 * appends to it, so no line of any round's holder is ever lost to another's rewrite. Real
 * processes (tests/helpers/lock-child.ts), bounded by rounds and by time.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { lockFileOf } from '../../src/main/base/data-lock'
import { lockChildProgram, startLockChild, type ChildAnswer, type LockChild } from '../helpers/child-processes'
import { z } from 'zod'

const ROUNDS = 20
const STARTERS = 6
const LINES = 3
/** The whole race, however slow the machine: it stops between rounds once this is spent. */
const BUDGET_MS = 150_000

const alive: LockChild[] = []
afterEach(async () => {
  await Promise.all(alive.splice(0).map((c) => c.kill9()))
})
beforeAll(async () => {
  await lockChildProgram()
}, 60_000)

const journalIds = (dir: string): string[] =>
  readFileSync(join(dir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => z.object({ job: z.object({ id: z.string() }) }).parse(JSON.parse(l)).job.id)

describe('starters racing for one data folder after a crash', () => {
  it(
    `${ROUNDS} rounds of ${STARTERS} processes at once: one holder each round, and every line of every holder kept`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lock-race-'))
      const until = Date.now() + BUDGET_MS
      const kept: string[] = []
      let rounds = 0
      for (; rounds < ROUNDS && Date.now() < until; rounds++) {
        const starters = await Promise.all(
          Array.from({ length: STARTERS }, (_, i) => startLockChild(dir, i % 2 ? 'cli' : 'app')),
        )
        alive.push(...starters)
        await Promise.all(starters.map((c) => c.next('ready')))
        if (rounds > 0) {
          // The last round's holder was killed: its holder file is still there, naming a dead process.
          expect(existsSync(lockFileOf(dir))).toBe(true)
        }
        // All at once: each is told to take the folder and, if it has it, start its journal.
        for (const c of starters) c.process.stdin!.write('take\njournal ' + LINES + '\n')
        const took = await Promise.all(starters.map((c) => c.next('took')))
        const started = await Promise.all(starters.map((c) => c.next('journal')))
        const holders = took.filter((t) => t.ok)
        expect(holders, `round ${rounds}: ${JSON.stringify(took)}`).toHaveLength(1)
        const holder = holders[0]!
        // The others were told who holds it (or that it was just taken), and wrote nothing.
        for (const t of took.filter((x) => !x.ok)) expect([holder.pid, 0]).toContain(t.heldBy?.pid)
        const byPid = new Map<number | undefined, ChildAnswer>(starters.map((c, i) => [c.pid, started[i]!]))
        const own = byPid.get(holder.pid)!
        expect(own).toMatchObject({ compacted: 'ok' })
        expect(own.ids).toHaveLength(LINES)
        kept.push(...own.ids!)
        for (const [pid, s] of byPid) if (pid !== holder.pid) expect(s).toMatchObject({ compacted: 'noLock', ids: [] })
        // The crash: every starter killed, the holder with its lock.
        await Promise.all(starters.map((c) => c.kill9()))
        alive.length = 0
        expect(journalIds(dir)).toEqual(kept)
      }
      expect(rounds).toBeGreaterThanOrEqual(5)
      expect(journalIds(dir)).toEqual(kept)
    },
    BUDGET_MS + 60_000,
  )

  it('a second starter beside a running holder, even with the holder file deleted by hand, neither rewrites nor appends to its journal: every line of the holder stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-second-'))
    const first = await startLockChild(dir, 'app')
    const second = await startLockChild(dir, 'cli')
    alive.push(first, second)
    await Promise.all([first.next('ready'), second.next('ready')])
    expect(await first.ask('take', 'took')).toMatchObject({ ok: true })
    const before = await first.ask('journal 2', 'journal')
    expect(await second.ask('take', 'took')).toMatchObject({ ok: false, heldBy: { pid: first.pid, who: 'app' } })
    // What the old lock file invited after a crash: deleting it by hand. The OS lock still stands.
    rmSync(lockFileOf(dir))
    expect(await second.ask('take', 'took')).toMatchObject({ ok: false })
    // As the runner's start would: read and rewrite, then its own lines. Refused, all of it.
    expect(await second.ask('journal 2', 'journal')).toMatchObject({ compacted: 'noLock', ids: [] })
    const after = await first.ask('append 2', 'append')
    expect(journalIds(dir)).toEqual([...before.ids!, ...after.ids!])
    expect(journalIds(dir)).toHaveLength(4)
  })
})
