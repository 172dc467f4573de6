/**
 * The targets a write of many went on around (--skip-busy): left out because another write held
 * them, when the job was prepared (main's LeftOutItem) or when an item's turn came (refused as
 * held, nothing sent). Each is said with who holds it, on which workstation and since when (team
 * mode), and whether that write is on its way or of unknown outcome.
 */
import type { ErrorData } from '@shared/errors'
import type { MessageKey } from '@shared/i18n/catalogue'
import type { JobItemView } from '@shared/jobs'
import type { Texts } from './text'

/** The refusals of a held target (main's held-by.ts), each with the command's words for leaving it out. */
const WORDS = {
  'job.targetBusy': 'cli.leftOut.busy',
  'job.targetBusyBy': 'cli.leftOut.busyBy',
  'job.targetUnknown': 'cli.leftOut.unknown',
  'job.targetUnknownBy': 'cli.leftOut.unknownBy',
} as const satisfies Record<string, MessageKey>

type HeldCode = keyof typeof WORDS
const isHeldCode = (code: string): code is HeldCode => Object.hasOwn(WORDS, code)

export interface LeftOut {
  label: string
  error: ErrorData
}

/** Items of an ended job refused because another write held their target when their turn came: nothing was sent for them. */
export function heldWhenSent(items: readonly JobItemView[]): LeftOut[] {
  return items.flatMap((it) =>
    it.state === 'failed' && it.error && isHeldCode(it.error.code) ? [{ label: it.label, error: it.error }] : [],
  )
}

/** One line: the target, left out, and why. */
export function leftOutLine(say: Texts, l: LeftOut): string {
  const code = l.error.code
  return isHeldCode(code)
    ? say.t(WORDS[code], { ...l.error.params, target: l.label })
    : `${l.label}\t${say.error(l.error)}`
}

/** As --json gives it: the target, the refusal's code, whether the holding write is on its way or unknown, and its holder where known. */
export function leftOutJson(l: LeftOut): Record<string, string | number> {
  const p = l.error.params ?? {}
  const out: Record<string, string | number> = {
    target: l.label,
    code: l.error.code,
    held: l.error.code.startsWith('job.targetUnknown') ? 'unknown' : 'sending',
  }
  if (p.member !== undefined && p.workstation !== undefined)
    Object.assign(out, { member: p.member, workstation: p.workstation, since: p.sinceIso ?? p.since ?? '' })
  return out
}
