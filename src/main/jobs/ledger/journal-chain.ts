/**
 * A journal that shows tampering: every line carries an HMAC chained to the line before it, under
 * a key of this installation (body-mac.ts chainKeys: in the keychain, or an owner-only file where
 * none can be reached), so a line edited, moved, removed or inserted breaks the chain at that line.
 * What the end of the chain should be (its epoch, line count and last MAC) is also kept outside
 * the file (the store: `JournalTipStore`), so a journal cut at a line boundary, or replaced with an
 * older copy of itself, is noticed too.
 *
 * A line is the record's JSON with `"mac":"<hex>"` as its last member, the MAC taken over the text
 * before it: `HMAC(key, previous MAC + "\n" + the line without its MAC)`. The first line of a file
 * is a head record with a random epoch, so the chains of two files never meet. A journal written
 * before the chain (no MAC on any line, and no tip kept) is read as it is, once; its rewrite at
 * start chains it.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { z } from 'zod'

/** Where the chain ends: what the outside copy keeps. `previous` while a rewrite is under way (its file not yet in place). */
export interface JournalTip {
  epoch: string
  count: number
  mac: string
  /** The MAC of the whole file as written (a start that finds it so reads it without checking each line). */
  fileMac?: string | undefined
}
const tipSchema = z.object({
  epoch: z.string(),
  count: z.number().int().min(0),
  mac: z.string(),
  fileMac: z.string().optional(),
})
export const journalTipState = z.object({ tip: tipSchema, previous: tipSchema.optional() })
export type JournalTipState = z.infer<typeof journalTipState>

/** The outside copy of the chain's end (the store's settings; nothing when the store cannot keep it). */
export interface JournalTipStore {
  read(): Promise<JournalTipState | undefined>
  write(state: JournalTipState): Promise<void>
}

const MAC_START = ',"mac":"'
/** The length of a line's MAC member and its closing brace: `,"mac":"` 64 hex digits `"}`. */
const MAC_TAIL = MAC_START.length + 64 + 2
const HEX64 = /^[0-9a-f]{64}$/

/** A line's MAC and the text before it (the record's JSON without it), or none. */
function splitMac(line: string): { body: string; mac: string } | undefined {
  if (line.length < MAC_TAIL + 1 || !line.endsWith('"}')) return undefined
  const at = line.length - MAC_TAIL
  if (!line.startsWith(MAC_START, at)) return undefined
  const mac = line.slice(at + MAC_START.length, line.length - 2)
  if (!HEX64.test(mac)) return undefined
  return { body: `${line.slice(0, at)}}`, mac }
}

/** A head line's record: the chain's epoch. Not a journal record (the journal's reader skips it). */
export const headRecord = (epoch: string) => ({ t: 'head', epoch })
export const newEpoch = () => randomBytes(12).toString('hex')

function macOf(key: Buffer, previous: string, body: string): string {
  return createHmac('sha256', key).update(previous).update('\n').update(body).digest('hex')
}

/** A line of the chain: the record's JSON (an object) with its MAC as the last member. */
export function sealed(json: string, previous: string, key: Buffer): { line: string; mac: string } {
  const mac = macOf(key, previous, json)
  return { line: `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"mac":"${mac}"}`, mac }
}

export interface ChainReading {
  /** Lines read (non-empty). */
  count: number
  /** How many lines from the start the chain vouches for (all of them when it is whole). */
  vouched: number
  /** The MAC of the last vouched line ('' before the first). */
  lastMac: string
  epoch: string | undefined
  /** No line carries a MAC: a journal from before the chain. */
  unchained: boolean
  /** The text of each line without its MAC (what the reader parses). */
  bodies: string[]
  /** The MAC of each vouched line, in order. */
  macs: string[]
  /** The MAC each line carries, vouched or not, and the epoch its head line names ('' for a line with none). */
  written: { macs: string[]; epoch: string | undefined }
}

/** Reads a journal's lines against the keys the installation holds: how far the chain holds. */
export function readChain(lines: readonly string[], keys: readonly Buffer[]): ChainReading {
  const bodies: string[] = []
  const macs: string[] = []
  const writtenMacs: string[] = []
  let previous = ''
  let vouched = 0
  let broken = false
  let anyMac = false
  let epoch: string | undefined
  for (const [n, line] of lines.entries()) {
    const m = splitMac(line)
    const body = m ? m.body : line
    bodies.push(body)
    writtenMacs.push(m?.mac ?? '')
    if (m) anyMac = true
    if (broken) continue
    const mac = m?.mac
    // Compared as text: what is checked is this installation's own file, at its own start.
    const good = mac !== undefined && keys.some((key) => macOf(key, previous, body) === mac)
    if (!good) {
      broken = true
      continue
    }
    if (n === 0) epoch = headEpoch(body)
    previous = mac
    macs.push(mac)
    vouched++
  }
  const written = { macs: writtenMacs, epoch: bodies[0] !== undefined ? headEpoch(bodies[0]) : undefined }
  return {
    count: lines.length,
    vouched: anyMac ? vouched : 0,
    lastMac: anyMac ? previous : '',
    epoch,
    unchained: !anyMac,
    bodies,
    macs,
    written,
  }
}

function headEpoch(body: string): string | undefined {
  try {
    const v: unknown = JSON.parse(body)
    const head = z.object({ t: z.literal('head'), epoch: z.string() }).safeParse(v)
    return head.success ? head.data.epoch : undefined
  } catch {
    return undefined
  }
}

/**
 * Where the journal stops being vouched for, judging the file's chain and the outside tip
 * together: undefined when whole; else the 1-based line from which nothing is vouched (a line
 * past the end when lines were cut off or the file is an older copy).
 */
export function firstUnvouchedLine(reading: ChainReading, tip: JournalTipState | undefined): number | undefined {
  if (reading.unchained) {
    // A journal from before the chain is read once, as it is; one whose chain was known is not.
    return tip && tip.tip.count > 0 ? 1 : undefined
  }
  // No line verifies under any key held: the key changed (a keychain reset), or the file is not
  // this installation's. The outside copy tells them apart: the file it ends is read as it is.
  if (reading.vouched === 0 && reading.count > 0) return keyChanged(reading, tip) ? undefined : 1
  if (reading.vouched < reading.count) return reading.vouched + 1
  if (!tip) return undefined
  // Lines past the tip are this installation's own (a crash before the tip was written), chained to it.
  const matches = (t: JournalTip) =>
    t.count === 0 || (t.epoch === reading.epoch && reading.count >= t.count && reading.macs[t.count - 1] === t.mac)
  if (matches(tip.tip) || (tip.previous && matches(tip.previous))) return undefined
  // Whole but not the file the tip ends: cut at a line boundary, or an older copy put in its place.
  // What it holds was written here; what came after it is missing.
  return reading.count + 1
}

/**
 * Whether a journal none of whose lines verifies is the one the outside copy ends (its head's
 * epoch, its line count, the MAC its last counted line carries): written here under a key this
 * installation no longer holds, not replaced.
 */
export function keyChanged(reading: ChainReading, tip: JournalTipState | undefined): boolean {
  if (!tip || reading.unchained) return false
  const matches = (t: JournalTip) =>
    t.epoch === reading.written.epoch && reading.count === t.count && reading.written.macs[t.count - 1] === t.mac
  return matches(tip.tip) || (tip.previous !== undefined && matches(tip.previous))
}

/** A store of text settings (the portfolio store's), as the journal's tip is kept in it. */
interface SettingsStore {
  getSetting(key: string): Promise<string | undefined>
  putSetting(key: string, value: string): Promise<void>
}

/** The chain's end kept as one setting of a store outside the journal file (the portfolio store's, in its worker). */
export function journalTipIn(settings: SettingsStore, key = 'journal.tip'): JournalTipStore {
  return {
    async read() {
      const text = await settings.getSetting(key)
      if (text === undefined) return undefined
      const parsed: unknown = JSON.parse(text)
      return journalTipState.parse(parsed)
    },
    write: (state) => settings.putSetting(key, JSON.stringify(state)),
  }
}
