/**
 * One channel's handler: how its payload is validated and what runs with the result. The
 * payload is parsed here, once; `run` receives the parsed value and nothing parses it again.
 */
import type { Parsed } from '@shared/errors/field-issues'
import type { Progress } from '@shared/ipc/contract'
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

/** A payload that is a plain object, for taking it apart before validation. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
