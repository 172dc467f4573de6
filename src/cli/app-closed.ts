/**
 * The app closed while the command waited for a job it runs through the app's door (app-door.ts).
 * A module of its own: every command's context (context.ts) knows it, and `--help` loads that
 * context without the door's message schemas.
 */
import type { ErrorData } from '@shared/errors'

export const APP_GONE: ErrorData = { kind: 'outcome-unknown', code: 'cli.appClosed' }

/** How the job ended is in the app's Writes. */
export class AppClosed extends Error {
  readonly error: ErrorData = APP_GONE
  constructor() {
    super(APP_GONE.code)
  }
}
