/**
 * History says who, across the team (issue 37 points 4 and 5): every write that ends done or
 * unknown leaves a row in the team's history with this member and workstation (teamChangeOf: the
 * team ledger writes it with the send's end, team-ledger.ts end); and a zone save
 * refused because the zone changed since its plan (dns.changedSincePlan) names the member whose
 * save made the zone as it is now (dns.changedSincePlanBy), when the team's history knows it: a
 * team row whose saved records are the zone's records now. A change made at the service's own
 * panel matches no row: it stays unnamed ("from outside").
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { ErrorData } from '@shared/errors'
import { subjectOf, type WriteObserver } from '../jobs/write-history'
import { SUBJECT_KINDS } from '@shared/portfolio/history'
import { factsOf } from '../jobs/operations'
import type { TeamHistoryEntry } from './team-shared'
import type { JobView } from '@shared/jobs'

export interface TeamHistoryPlace {
  changesOf(accountId: string, domain: string): Promise<TeamHistoryEntry[]>
}

/** What the team's history keeps of a write: no parameters (they may hold a transfer code or a password); a zone's records. */
export const teamChangeSchema = z.object({
  operation: z.string(),
  /** Whose history it is and which part of it (write-history.ts subjectOf; absent in rows of earlier versions: the domain). */
  subjectKind: z.enum(SUBJECT_KINDS).optional(),
  subject: z.string().optional(),
  outcome: z.enum(['done', 'unknown']),
  jobId: z.string(),
  index: z.number().int(),
  requestId: z.string().optional(),
  /** A zone save: a hash of the records the service kept, to tell whose save made the zone as it is. */
  recordsHash: z.string().optional(),
  /**
   * A zone save: the records it was planned from (the zone just before it, as checked) and those
   * the service kept, so every member's History shows its plan lines. A zone holds no secret.
   */
  recordsBefore: z.string().optional(),
  records: z.string().optional(),
})
type TeamChange = z.infer<typeof teamChangeSchema>

const recordsHashOf = (records: string) =>
  createHash('sha256').update(records.replace(/\r\n/g, '\n').trim()).digest('base64url')

const recordsOf = (v: unknown): string | undefined =>
  typeof v === 'object' && v !== null && 'records' in v && typeof v.records === 'string' ? v.records : undefined

/** A zone's records kept in a team row at most this long, before and after each (a larger one keeps its hash only). */
const MAX_ZONE_CHARS = 128 * 1024

/**
 * Per zone save item on its way: the records it was planned from (its guard, found unchanged just
 * before the send). Keyed by the runner's own job object, which the observer and the ledger's end
 * are both given, so nothing outlives the job.
 */
const plannedFrom = new WeakMap<JobView, Map<number, string>>()

/**
 * The local history observer, with the team's history naming who made a zone as it is when a save
 * is refused for a change since its plan. A team step that fails never fails a write.
 */
export function withTeamHistory(
  local: WriteObserver,
  team: TeamHistoryPlace,
  onError: (err: unknown) => void,
): WriteObserver {
  return {
    async beforeSend(job, i, params, client, guard) {
      const refused = await local.beforeSend(job, i, params, client, guard)
      if (!refused && guard && factsOf(job.operation).zone) {
        const items = plannedFrom.get(job) ?? new Map<number, string>()
        plannedFrom.set(job, items.set(i, guard.records))
      }
      if (refused?.code !== 'dns.changedSincePlan') return refused
      const domain = String(refused.params?.domain ?? '')
      const kind = factsOf(job.operation).zone
      try {
        const now =
          kind === 'freedns'
            ? await client.call('freedns.get', { domain })
            : await client.call('domains.dns.get', { domain })
        const hash = recordsHashOf(now.records)
        const rows = await team.changesOf(job.accountId, domain)
        const maker = [...rows].reverse().find((r) => {
          const c = teamChangeSchema.safeParse(r.change)
          return c.success && c.data.recordsHash === hash
        })
        if (maker?.by) return namedBy(refused, maker)
      } catch (err) {
        onError(err)
      }
      return refused
    },

    // The team's row of a send's end is written with its journal record (teamChangeOf below).
    ended: (job, i, opts) => local.ended(job, i, opts),
  }
}

/**
 * The team's history row of an item that ended done or unknown (a failure changed nothing): its
 * domain and what the row keeps. Undefined for any other state.
 */
export function teamChangeOf(job: JobView, i: number): { domain: string; change: TeamChange } | undefined {
  const it = job.items[i]
  if (!it || (it.state !== 'done' && it.state !== 'unknown')) return undefined
  const p: Record<string, unknown> = it.params
  const domain = typeof p.domain === 'string' || typeof p.domain === 'number' ? String(p.domain) : it.target
  const saved = factsOf(job.operation).zone && it.state === 'done' ? recordsOf(it.result) : undefined
  const before = plannedFrom.get(job)?.get(i)
  plannedFrom.get(job)?.delete(i)
  const lines =
    saved !== undefined && before !== undefined && saved.length + before.length <= MAX_ZONE_CHARS
      ? { recordsBefore: before, records: saved }
      : {}
  const { kind: subjectKind, subject } = subjectOf(job.operation, p)
  return {
    domain,
    change: {
      operation: job.operation,
      subjectKind,
      subject,
      outcome: it.state,
      jobId: job.id,
      index: i,
      ...(it.requestId ? { requestId: it.requestId } : {}),
      ...(saved !== undefined ? { recordsHash: recordsHashOf(saved) } : {}),
      ...lines,
    },
  }
}

function namedBy(refused: ErrorData, maker: TeamHistoryEntry): ErrorData {
  if (!maker.by) return refused
  return {
    ...refused,
    code: 'dns.changedSincePlanBy',
    params: {
      ...refused.params,
      member: maker.by.member,
      workstation: maker.by.workstation,
      at: `${maker.at.slice(0, 16).replace('T', ' ')} UTC`,
      // For the window, which shows it in its one local format (issue 53).
      atIso: maker.at,
    },
  }
}
