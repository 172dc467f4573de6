/**
 * Once per intent: what each write was confirmed against (its operation's `precondition` in
 * operations.ts), and what the runner does when it moved. A hold keeps two sends to one target
 * apart; only this keeps a confirmation that is no longer true from being sent after someone
 * else's send (two workstations renewing the same domains, a job woken after a colleague took
 * over its targets).
 *
 * Under the item's hold, right before it is sent, the ledger says whether a send of the same
 * target ended done after the job's mark (or from the same basis: a renewal from the expiry date
 * this one saw). It then refuses the item, saying who did it and when; never sent, never charged.
 * Where the ledger cannot tell (its record is not vouched for, or a send since was settled without
 * evidence), an operation whose basis the service can show is checked there: the expiry date read
 * again. Any other is refused: sending what may already have been done is what this prevents.
 * Zone saves keep their own, finer precondition: the records the plan was made from, read again
 * (write-history.ts beforeSend with zone-rules.ts).
 */
import type { ErrorData } from '@shared/errors'
import type { EndpointParams, WriteEndpointName } from '@shared/endpoints/table'
import type { JobItemView } from '@shared/jobs'
import type { ApiClient } from '../http'
import { expiryNow } from './effects'
import type { EarlierSend, SendPrecondition, UnsureWhy } from './ledger/write-ledger'
import { factsOf, type PreconditionKind } from './operations'

/** Whether the ledger's record of ended sends decides this operation's precondition (all but zone saves). */
export const checkedByLedger = (operation: WriteEndpointName): boolean => factsOf(operation).precondition !== 'zone'

/** What an item is confirmed against, for its hold and its check: the job's mark and the item's basis. */
export function preconditionOf(job: { mark?: string | undefined }, it: Pick<JobItemView, 'basis'>): SendPrecondition {
  return { since: job.mark, ...(it.basis !== undefined ? { basis: it.basis } : {}) }
}

/** The basis an item is confirmed against, from what its confirmation read (an expiry date), where the operation has one. */
export function basisOf(operation: WriteEndpointName, it: Pick<JobItemView, 'effect'>): string | undefined {
  return factsOf(operation).precondition === 'expiry' && it.effect?.from ? it.effect.from : undefined
}

const VERB: Record<Exclude<PreconditionKind, 'zone'>, string> = {
  expiry: 'Renewed',
  setting: 'Changed',
  owner: 'Transferred',
  absent: 'Created',
  present: 'Removed',
}

/** "YYYY-MM-DD HH:MM UTC": the same on every workstation (the words show it; `atIso` is for screens that format it). */
const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`

/** An item refused because a send of its target ended after its confirmation: who, where, when; not sent. */
export function alreadyDoneError(operation: WriteEndpointName, target: string, by: EarlierSend): ErrorData {
  const kind = factsOf(operation).precondition
  const verb = VERB[kind === 'zone' ? 'setting' : kind]
  const at = { at: utcMinute(by.at), atIso: by.at }
  if (by.member !== undefined && by.workstation !== undefined) {
    return {
      kind: 'busy',
      code: `job.already${verb}By`,
      params: { target, member: by.member, workstation: by.workstation, ...at },
    }
  }
  return { kind: 'busy', code: `job.already${verb}Here`, params: { target, ...at } }
}

/** An item refused because nothing could tell whether its target was already acted on. */
export function unsureError(target: string, why: UnsureWhy): ErrorData {
  return { kind: 'busy', code: `job.preconditionUnsure.${why}`, params: { target } }
}

export type ServiceVerdict = { holds: true } | { holds: false; error: ErrorData }

/**
 * The precondition read again from the service, where the ledger cannot tell: the expiry date as
 * it is now, against the one the confirmation showed. Undefined: the operation's basis is not
 * one the service shows (the caller refuses the item).
 */
export async function verifyAtService(
  client: ApiClient,
  operation: WriteEndpointName,
  params: EndpointParams<WriteEndpointName>,
  it: Pick<JobItemView, 'basis' | 'label'>,
  signal?: AbortSignal,
): Promise<ServiceVerdict | undefined> {
  if (factsOf(operation).precondition !== 'expiry' || it.basis === undefined) return undefined
  const now = await expiryNow(client, operation, params, signal)
  if (now === undefined) return undefined
  if (now === it.basis) return { holds: true }
  return {
    holds: false,
    error: { kind: 'busy', code: 'job.changedSinceConfirmed', params: { target: it.label, confirmed: it.basis, now } },
  }
}
