/**
 * What served-against-saved finds (main/dns-health/served.ts): codes and parameters, worded by
 * the catalogue's `served.*` in the window and the command line.
 */
export type ServedCode = 'served.delegatedElsewhere' | 'served.unresolved' | 'served.unreachable' | 'served.missing' | 'served.extra' | 'served.rewritten'

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
