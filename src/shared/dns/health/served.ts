/**
 * What served-against-saved finds (main/dns-health/served.ts): codes and parameters, worded by
 * the catalogue's `served.*` in the window and the command line.
 */
export type ServedCode =
  | 'served.delegatedElsewhere'
  | 'served.unresolved'
  | 'served.unreachable'
  | 'served.missing'
  | 'served.extra'
  | 'served.rewritten'

export interface ServedFinding {
  code: ServedCode
  params: Record<string, string | number>
}

export interface ServedReport {
  domain: string
  findings: ServedFinding[]
  /** Questions asked (for the bench and the rate of a run). */
  asked: number
}

/**
 * A comparison's outcome, said apart (issue 53): the nameservers serve what is saved; they serve
 * something else (a record behind, missing or rewritten); the domain is delegated to nameservers
 * that do not serve this zone at all; or no nameserver could be asked (no address, no answer),
 * which says nothing about the zone and is never a difference.
 */
export const SERVED_OUTCOMES = ['same', 'differs', 'delegated', 'unknown'] as const
export type ServedOutcome = (typeof SERVED_OUTCOMES)[number]

/** The findings that are a real difference between what is served and what is saved. */
const DIFFERENCE_CODES: readonly ServedCode[] = ['served.missing', 'served.extra', 'served.rewritten']

export const isServedDifference = (f: ServedFinding): boolean => DIFFERENCE_CODES.includes(f.code)

export function servedOutcome(findings: readonly ServedFinding[]): ServedOutcome {
  if (findings.some((f) => f.code === 'served.delegatedElsewhere')) return 'delegated'
  if (findings.some(isServedDifference)) return 'differs'
  return findings.length > 0 ? 'unknown' : 'same'
}

/** A zone's last comparison as the store keeps it (its time survives a reload). */
export interface ServedResult {
  accountId: string
  domain: string
  outcome: ServedOutcome
  findings: ServedFinding[]
  at: string
}
