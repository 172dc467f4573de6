/**
 * Why a target cannot be written now, as the window and the command line word it: a send on its
 * way, or an earlier send whose outcome is unknown. In team mode the holder is another member's
 * workstation, and the refusal names them and since when ("being changed by A on host-x since
 * 10:02", issue 37 point 4); this process's own holds name no one.
 */
import type { ErrorData } from '../../../shared/errors'
import type { TargetHolder } from './write-ledger'

/** HH:MM of an ISO time in this machine's time zone (the window's and the command line's too). */
function clockTime(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
}

export function heldError(holder: Pick<TargetHolder, 'state' | 'since' | 'member' | 'workstation'>, targets: string): ErrorData {
  const sending = holder.state === 'sending'
  if (holder.member === undefined) return { kind: 'busy', code: sending ? 'job.targetBusy' : 'job.targetUnknown', params: { targets } }
  return {
    kind: 'busy',
    code: sending ? 'job.targetBusyBy' : 'job.targetUnknownBy',
    params: { targets, member: holder.member, workstation: holder.workstation ?? '', since: clockTime(holder.since) },
  }
}
