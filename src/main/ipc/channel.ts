/**
 * One channel's handler: how its payload is validated and what runs with the result. The
 * payload is parsed here, once; `run` receives the parsed value and nothing parses it again.
 */
import { parseWith, type Parsed } from '@shared/errors/field-issues'
import type { LocalChannel, LocalResults, Progress } from '@shared/ipc/contract'
import { localPayloads, type LocalPayloads } from '@shared/ipc/payloads'
import type { z } from 'zod'
import type { JobView } from '@shared/jobs'
import type { ReminderTarget } from '@shared/portfolio/reminders'
import { AppError } from '../base/app-error'

export interface Sender {
  /** URL of the frame that sent the message. */
  url: string
  /** Which page it is (the same for every message of one page). */
  key: string
  /** Sends a progress event back to that page. */
  sendProgress(p: Progress): void
  /** Sends a write job's state to that page; false once the page is gone. */
  sendJob(job: JobView): boolean
  /**
   * Tells that page to open a reminder's item (its notification was clicked); false once the
   * page is gone. Absent where no page can be told (tests that call the router themselves).
   */
  sendReminderOpen?(target: ReminderTarget): boolean
}

export interface ChannelHandler<Payload, Result> {
  /** Validates the payload, then runs the handler with the parsed value. */
  invoke(raw: unknown, sender: Sender): Promise<Result>
  /** The payload type, for checking handlers against the contract; never set. */
  readonly payloadType?: Payload
}

export function defineChannel<Payload, Result>(
  parse: (raw: unknown) => Parsed<Payload>,
  run: (payload: Payload, sender: Sender) => Promise<Result>,
): ChannelHandler<Payload, Result> {
  return {
    async invoke(raw, sender) {
      const parsed = parse(raw)
      if (!parsed.ok) throw AppError.invalid('ipc.invalidPayload', parsed.issues)
      return run(parsed.value, sender)
    },
  }
}

/** Each local channel's schema typed by its own output, so a channel's parser keeps its type when picked by name. */
const localParsers: { [C in LocalChannel]: z.ZodType<z.output<LocalPayloads[C]>> } = localPayloads

/** A local channel's handler, the channel named once: its payload checked by its schema (payloads.ts). */
export function local<C extends LocalChannel>(
  name: C,
  run: (payload: z.output<LocalPayloads[C]>, sender: Sender) => Promise<LocalResults[C]>,
): ChannelHandler<z.output<LocalPayloads[C]>, LocalResults[C]> {
  return defineChannel((raw) => parseWith(localParsers[name], raw), run)
}

/** The local channels that answer null: done when their work is. */
type DoneChannel = { [C in LocalChannel]: LocalResults[C] extends null ? C : never }[LocalChannel]

/** A local channel that answers null once `run` is done. */
export function localDone<C extends DoneChannel>(
  name: C,
  run: (payload: z.output<LocalPayloads[C]>, sender: Sender) => unknown,
): ChannelHandler<z.output<LocalPayloads[C]>, null> {
  return defineChannel(
    (raw) => parseWith(localParsers[name], raw),
    async (payload, sender) => {
      await run(payload, sender)
      return null
    },
  )
}

/** A payload that is a plain object, for taking it apart before validation. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
