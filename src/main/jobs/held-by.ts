/**
 * A write refused because its target is held (issue 37 point 4): by this process, as before
 * (job.targetBusy / job.targetUnknown), or, in team mode, by a member on a workstation since a
 * time (UTC), which the refusal names (job.targetBusyBy / job.targetUnknownBy) in the window and in the
 * command line. `since` is the hold's ISO time; the words format it.
 */
import type { ErrorData } from '@shared/errors'
import type { TargetHolder } from './ledger/write-ledger'

export function heldError(
  holder: Pick<TargetHolder, 'state' | 'since' | 'member' | 'workstation'>,
  targets: string,
): ErrorData {
  const sending = holder.state === 'sending'
  if (holder.member === undefined || holder.workstation === undefined) {
    return { kind: 'busy', code: sending ? 'job.targetBusy' : 'job.targetUnknown', params: { targets } }
  }
  return {
    kind: 'busy',
    code: sending ? 'job.targetBusyBy' : 'job.targetUnknownBy',
    // `since` as words show it (UTC, to the minute: the same on every workstation); `sinceIso` for screens that format it.
    params: {
      targets,
      member: holder.member,
      workstation: holder.workstation,
      since: `${holder.since.slice(0, 16).replace('T', ' ')} UTC`,
      sinceIso: holder.since,
    },
  }
}
