/**
 * History, snapshots and drift: plain shapes shared by the store (main) and the screens.
 *
 * A history entry is one thing that happened to one subject of one account: a write made from
 * this app (origin "app": operation, parameters, outcome, request ID, before and after), or a
 * change a refresh found that this app did not make (origin "outside": before and after).
 * Values never hold a key, a transfer code or a dynamic DNS password.
 */
import type { ZoneKind } from './index'
import type { JobPurpose } from '../jobs'

/** What a subject is: the history of a domain, a free DNS zone, a server (kind:webid), a service IP. */
export const SUBJECT_KINDS = ['domain', 'freedns', 'server', 'svcip', 'account'] as const
export type SubjectKind = (typeof SUBJECT_KINDS)[number]

/**
 * Which part of a subject changed. Drift is watched for the first six; `write` is any other
 * write made from this app (a registration, a transfer, a server setting).
 */
export const HISTORY_ASPECTS = [
  'dns',
  'nameservers',
  'whois',
  'transferlock',
  'autorenew',
  'expiration',
  'dnssec',
  'dynamicdns',
  'write',
  'health',
  'served',
] as const
export type HistoryAspect = (typeof HISTORY_ASPECTS)[number]

export const HISTORY_ORIGINS = ['app', 'outside'] as const
export type HistoryOrigin = (typeof HISTORY_ORIGINS)[number]

/**
 * What kind of entry it is, for Activity's filter and the entry's label (issue 53): a write of
 * mine, a write of a teammate's (team mode), a change made outside this app, or a finding of a
 * check (a comparison with the nameservers, the zone rules): a check found it, it was not made
 * outside this app, whatever the row's stored origin says.
 */
export const HISTORY_KINDS = ['mine', 'team', 'outside', 'check'] as const
export type HistoryKind = (typeof HISTORY_KINDS)[number]

export function historyKind(
  e: Pick<HistoryEntry, 'origin' | 'aspect' | 'member'>,
  me: string | undefined,
): HistoryKind {
  if (e.aspect === 'served' || e.aspect === 'health') return 'check'
  if (e.origin === 'outside') return 'outside'
  return e.member !== undefined && me !== undefined && e.member !== me ? 'team' : 'mine'
}

/** A zone's value in history: what a plan is made between. */
export interface ZoneValue {
  records: string
  ttl?: number | undefined
  ns_type?: string | undefined
}

/** How a write from this app ended: an unknown outcome is one the service may or may not have acted on. */
export const WRITE_OUTCOMES = ['done', 'failed', 'unknown'] as const
export type WriteOutcome = (typeof WRITE_OUTCOMES)[number]

export interface HistoryEntry {
  id: number
  accountId: string
  subjectKind: SubjectKind
  subject: string
  origin: HistoryOrigin
  aspect: HistoryAspect
  /** For a write from this app: the operation, why (an edit, a restore, a bulk DNS change), what was sent and how it ended. */
  operation?: string | undefined
  purpose?: JobPurpose | undefined
  params?: Record<string, unknown> | undefined
  outcome?: WriteOutcome | undefined
  requestId?: string | undefined
  jobId?: string | undefined
  /** The aspect's value before and after (for `dns`, a ZoneValue), when known. */
  before?: unknown
  after?: unknown
  at: string
  /** A change from outside stays unseen until the user has looked at it. */
  seen: boolean
  /** The snapshot taken before this change (zones only). */
  snapshotId?: number | undefined
  /** Team mode (issue 37): who made a change from the app, and on which workstation; never set for a change from outside. */
  member?: string | undefined
  workstation?: string | undefined
}

export const SNAPSHOT_REASONS = ['before-save', 'before-outside-change'] as const
export type SnapshotReason = (typeof SNAPSHOT_REASONS)[number]

export interface SnapshotSummary {
  id: number
  accountId: string
  kind: ZoneKind
  domain: string
  reason: SnapshotReason
  at: string
  recordCount: number
}

export interface Snapshot extends SnapshotSummary, ZoneValue {}

/** Two years, as the issue asks, unless the user chooses otherwise. */
export const DEFAULT_HISTORY_RETENTION_DAYS = 730
export const MAX_HISTORY_RETENTION_DAYS = 3650
