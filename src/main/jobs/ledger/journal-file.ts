/**
 * The local journal of every write: one JSON line per record (journal-record.ts), appended to a
 * file in the app's data folder and flushed to disk line by line, so a crash loses at most the
 * line being written. After a restart the jobs are rebuilt from it. Its lines are chained by MACs
 * (journal-chain.ts), with the chain's end kept outside the file too: a journal changed outside
 * the app is noticed at load, and every item it no longer vouches for is read as unknown (to be
 * settled from the service's log), never as failed or not sent, so nothing is sent again for it.
 */
import { createHash, createHmac, type Hash } from 'node:crypto'
import { chmod, copyFile, mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { ItemState, JobView } from '@shared/jobs'
import {
  firstUnvouchedLine,
  headRecord,
  journalTipState,
  keyChanged,
  newEpoch,
  readChain,
  sealed,
  type JournalTip,
  type JournalTipState,
  type JournalTipStore,
} from './journal-chain'
import {
  applyJournalRecord,
  journaledJob,
  journalRecordSchema,
  withTodaysNames,
  type JournalRecord,
} from './journal-record'

/**
 * Who may write a journal: the services that hold its data folder's lock (data-lock.ts), and
 * only while they hold it. Another process's lines would vanish in this one's rewrite (and this
 * one's in the other's), so a journal is written by its folder's holder or not at all.
 */
export interface JournalWriter {
  /** Undefined while the journal may be written; otherwise a code saying why not. */
  notWriterReason(): string | undefined
}

/** A journal write refused because this process does not hold the data folder (its code says why). */
class NotTheWriter extends Error {
  constructor(readonly code: string) {
    super(`journal not written: ${code}`)
    this.name = 'NotTheWriter'
  }
}

/** What a journal needs for its chain: the keys (body-mac.ts chainKeys, the first for new lines) and the outside copy of its end. */
export interface JournalChainOptions {
  keys: () => Promise<Buffer[]>
  tip?: JournalTipStore | undefined
}

/** Item states a later line may not take back: what the chain vouched as ended stays so. */
const SETTLED: readonly ItemState[] = ['done', 'failed', 'skipped']

export class Journal {
  private handle: FileHandle | undefined
  private writes: Promise<void> = Promise.resolve()
  /** Lines that could not be read back (a torn last line, a foreign file): counted, never fatal. */
  unreadableLines = 0
  /** Where the last load found the chain broken (1-based line; past the end: lines cut off or an older copy). */
  changedOutside: { line: number } | undefined
  /** The last load found the journal written under a key this installation no longer holds (a keychain reset), yet as the outside copy ends it. */
  keyChanged = false
  /** The jobs the last load could not vouch for (their items that had not ended read as unknown). */
  unvouchedJobs = new Set<string>()
  /** The chain's end as written so far (undefined until loaded or rewritten; without a chain, never). */
  private tip: JournalTip | undefined
  /** A hash of every byte of the file, as read and appended since (the whole file's MAC is taken from it). */
  private running: Hash | undefined

  constructor(
    readonly file: string,
    private readonly writer: JournalWriter,
    private readonly chain?: JournalChainOptions,
  ) {}

  /** Checked as each write's turn comes (the lock may have been let go meanwhile). */
  private mayWrite(): void {
    const reason = this.writer.notWriterReason()
    if (reason !== undefined) throw new NotTheWriter(reason)
  }

  /** Every job in the journal, as it stood at its last line, oldest first. */
  async load(): Promise<JobView[]> {
    let bytes: Buffer
    try {
      bytes = await readFile(this.file)
    } catch (err) {
      if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') bytes = Buffer.alloc(0)
      else throw err
    }
    const lines = bytes
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
    this.unreadableLines = 0
    this.changedOutside = undefined
    this.unvouchedJobs = new Set()
    this.keyChanged = false
    // Without a chain, or without its key (a keychain and a data folder that both refuse it: then
    // nothing can be journaled, so nothing is sent this run), the lines are read as they are.
    const keys = this.chain ? await this.chain.keys().catch(() => undefined) : undefined
    const running = createHash('sha256').update(bytes)
    this.running = running
    if (!this.chain || !keys) return [...this.fold(lines, lines.length).all.values()]
    const outside = await this.readTip()
    // The file exactly as this installation last wrote it (its whole content's MAC is the one kept
    // outside): vouched for without checking each line (a start then costs one hash of the file).
    const whole =
      outside?.tip.fileMac !== undefined && keys.some((key) => fileMacOf(key, running) === outside.tip.fileMac)
    if (whole && outside) {
      this.tip = outside.tip.count > 0 ? outside.tip : undefined
      return [...this.fold(lines, lines.length).all.values()]
    }
    const reading = readChain(lines, keys)
    let from = firstUnvouchedLine(reading, outside)
    // A last line torn by a crash while it was written (not JSON, past the end the outside copy
    // knows): that record never completed, so nothing it would have said happened; read as before.
    const torn =
      from === lines.length &&
      outside !== undefined &&
      outside.tip.count < lines.length &&
      !isJson(reading.bodies.at(-1) ?? '')
    if (torn) from = undefined
    const vouched = from === undefined ? (torn ? lines.length - 1 : lines.length) : from - 1
    const folded = this.fold(reading.bodies, vouched)
    // Written under a key no longer held, and the file the outside copy ends: read as it is, and
    // chained again from a fresh start at the rewrite that follows a load.
    this.keyChanged = keyChanged(reading, outside)
    this.tip =
      reading.unchained || this.keyChanged
        ? undefined
        : { epoch: reading.epoch ?? '', count: vouched, mac: reading.macs[vouched - 1] ?? '' }
    if (from === undefined) return [...folded.all.values()]
    this.changedOutside = { line: from }
    // What the chain vouches for stands; anything said after it (or cut off) is not: an item that had not ended is unknown.
    const cutOff = from > lines.length
    const unvouched = new Set(folded.laterJobs)
    if (cutOff)
      for (const job of folded.vouched.values())
        if (job.status !== 'done' && job.status !== 'stopped') unvouched.add(job.id)
    const out: JobView[] = []
    for (const [id, shown] of folded.all) {
      if (!unvouched.has(id)) {
        out.push(shown)
        continue
      }
      this.unvouchedJobs.add(id)
      const base = folded.vouched.get(id) ?? shown
      out.push({
        ...base,
        status: base.status === 'done' || base.status === 'stopped' ? base.status : 'interrupted',
        items: base.items.map((it) =>
          SETTLED.includes(it.state)
            ? it
            : {
                ...it,
                state: 'unknown',
                error: { kind: 'internal', code: 'job.journalChangedOutside', params: { line: from } },
              },
        ),
      })
    }
    return out
  }

  /**
   * The lines folded into jobs: all of them, the first `vouched` alone, and the jobs the others
   * name. A whole journal (every line vouched for) is folded once: the two are the same.
   */
  private fold(
    bodies: readonly string[],
    vouched: number,
  ): { all: Map<string, JobView>; vouched: Map<string, JobView>; laterJobs: Set<string> } {
    const all = new Map<string, JobView>()
    const early = vouched >= bodies.length ? all : new Map<string, JobView>()
    const laterJobs = new Set<string>()
    bodies.forEach((body, n) => {
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        this.unreadableLines++
        return
      }
      if (isHead(json)) return
      const parsed = journalRecordSchema.safeParse(withTodaysNames(json))
      if (!parsed.success) {
        this.unreadableLines++
        return
      }
      const r = parsed.data
      applyJournalRecord(all, r)
      if (early === all) return
      if (n < vouched) applyJournalRecord(early, structuredClone(r))
      else laterJobs.add(r.t === 'job' ? r.job.id : r.job)
    })
    return { all, vouched: early, laterJobs }
  }

  private async readTip(): Promise<JournalTipState | undefined> {
    try {
      const raw = await this.chain?.tip?.read()
      return raw === undefined ? undefined : journalTipState.parse(raw)
    } catch {
      // The store away: the file's own chain still shows an edit, a move or an insertion.
      return undefined
    }
  }

  /** The outside copy of the chain's end, kept current after each line (not awaited by the write: the file is the record). */
  private tipWrites: Promise<void> = Promise.resolve()
  private keepTip(state: JournalTipState): Promise<void> {
    const store = this.chain?.tip
    if (!store) return Promise.resolve()
    this.tipWrites = this.tipWrites.then(() => store.write(state)).catch(() => undefined)
    return this.tipWrites
  }

  /** The line a record is written as: chained to the last one when the journal has a chain. */
  private async lineOf(json: string): Promise<string> {
    if (!this.chain) return `${json}\n`
    const [key] = await this.chain.keys()
    if (!key) throw new Error('no journal key')
    // A journal never chained (or not yet read): it starts a chain of its own with a head line.
    if (!this.tip) {
      const epoch = newEpoch()
      const head = sealed(JSON.stringify(headRecord(epoch)), '', key)
      const line = sealed(json, head.mac, key)
      this.tip = { epoch, count: 2, mac: line.mac }
      return `${head.line}\n${line.line}\n`
    }
    const line = sealed(json, this.tip.mac, key)
    this.tip = { ...this.tip, count: this.tip.count + 1, mac: line.mac }
    return `${line.line}\n`
  }

  /** Appends one line and flushes it to disk; lines are written one at a time, in order. A job's line keeps no secret or contact. */
  append(r: JournalRecord): Promise<void> {
    const json = JSON.stringify(r.t === 'job' ? { t: 'job', job: journaledJob(r.job) } : r)
    const write = this.writes.then(async () => {
      this.mayWrite()
      const before = this.tip
      const line = await this.lineOf(json)
      try {
        if (!this.handle) {
          await mkdir(dirname(this.file), { recursive: true })
          // Readable by the user only: it holds what was sent to the service.
          this.handle = await open(this.file, 'a', 0o600)
          await this.handle.chmod(0o600)
        }
        await this.handle.write(line)
        await this.handle.datasync()
      } catch (err) {
        // Not written: the chain goes on from the last line that was.
        this.tip = before
        throw err
      }
      this.running?.update(line)
      if (this.tip) void this.keepTip({ tip: { ...this.tip, ...(await this.fileMac()) } })
    })
    this.writes = write.catch(() => undefined)
    return write
  }

  /** The MAC of the whole file as written so far (its running hash, under the key new lines take), for the outside copy. */
  private async fileMac(): Promise<{ fileMac?: string }> {
    const [key] = (await this.chain?.keys()) ?? []
    return key && this.running ? { fileMac: fileMacOf(key, this.running) } : {}
  }

  /**
   * Copies the journal as read aside (`journal.jsonl.damaged-<time>`) before a rewrite would drop
   * its unreadable lines, or start a new chain over one changed outside the app: it may be the only
   * record of a send. Returns the copy's path.
   */
  async keepAside(now: Date): Promise<string> {
    const aside = `${this.file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`
    await this.writes
    this.mayWrite()
    await copyFile(this.file, aside)
    await chmod(aside, 0o600)
    return aside
  }

  /**
   * Rewrites the journal with only these jobs, one line each (after a restart, to keep it short;
   * after an account is removed); only by the folder's holder. In the same queue as the lines: a
   * line appended meanwhile is written after the rewrite, never into the file the rewrite replaces.
   * A new chain: the outside copy names it before the file is put in place, with the old one as
   * `previous`, so a crash between the two leaves a journal that still matches.
   */
  compact(jobs: JobView[]): Promise<void> {
    const bodies = jobs.map((j) => JSON.stringify({ t: 'job', job: journaledJob(j) }))
    const rewrite = this.writes.then(async () => {
      // Never a rewrite of a journal another holder may be appending to.
      this.mayWrite()
      let lines = bodies.map((b) => `${b}\n`)
      let tip: JournalTip | undefined
      // Nothing to keep: an empty file, whose chain begins with the next line (a tip of no lines promises nothing).
      if (this.chain && bodies.length === 0) {
        tip = { epoch: '', count: 0, mac: '' }
        await this.tipWrites
        await this.keepTip({ tip })
      } else if (this.chain) {
        const [key] = await this.chain.keys()
        if (!key) throw new Error('no journal key')
        const epoch = newEpoch()
        let last = sealed(JSON.stringify(headRecord(epoch)), '', key)
        lines = [`${last.line}\n`]
        for (const b of bodies) {
          last = sealed(b, last.mac, key)
          lines.push(`${last.line}\n`)
        }
        const content = createHash('sha256')
        for (const line of lines) content.update(line)
        tip = { epoch, count: lines.length, mac: last.mac, fileMac: fileMacOf(key, content) }
        await this.tipWrites
        await this.keepTip({ tip, ...(this.tip ? { previous: this.tip } : {}) })
      }
      await this.handle?.close()
      this.handle = undefined
      await mkdir(dirname(this.file), { recursive: true })
      const tmp = `${this.file}.tmp`
      try {
        const h = await open(tmp, 'w', 0o600)
        try {
          await h.chmod(0o600)
          for (const line of lines) await h.write(line)
          await h.datasync()
        } finally {
          await h.close()
        }
        await rename(tmp, this.file)
      } catch (err) {
        // A full disk cuts the rewrite short: the journal stays as it was, and no half copy beside it.
        await unlink(tmp).catch(() => undefined)
        if (this.tip) void this.keepTip({ tip: this.tip })
        throw err
      }
      this.running = createHash('sha256')
      for (const line of lines) this.running.update(line)
      if (tip) {
        this.tip = tip.count > 0 ? tip : undefined
        void this.keepTip({ tip })
      }
    })
    this.writes = rewrite.catch(() => undefined)
    return rewrite
  }

  async close(): Promise<void> {
    await this.writes
    await this.tipWrites
    await this.handle?.close()
    this.handle = undefined
  }
}

/** The MAC of a file's whole content, from its running hash (left running). */
const fileMacOf = (key: Buffer, running: Hash): string =>
  createHmac('sha256', key).update(running.copy().digest()).digest('hex')

const isHead = (v: unknown): boolean => typeof v === 'object' && v !== null && 't' in v && v.t === 'head'

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
