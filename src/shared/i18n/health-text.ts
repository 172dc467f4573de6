/**
 * A health finding (src/shared/dns/health) in the user's words: what is found, why it matters
 * and how to fix it. The words come in as a parameter (the app's `tCode`, or the command's),
 * so the window and the command line say the same.
 */
import type { HealthFinding } from '../dns/health/rules'
import type { Params } from './format'

export interface HealthWords {
  tCode(code: string, params?: Params): string
}

export interface HealthText {
  title: string
  why: string
  fix: string
  /** The record as `TYPE host value`. */
  record: string
}

export function healthText(w: HealthWords, f: HealthFinding): HealthText {
  const params: Params = { ...f.params }
  // A syntax problem's word is itself in the catalogue; a check not made is named by its rule's title.
  if (typeof f.params.problem === 'string') params.problem = w.tCode(`health.problem.${f.params.problem}`)
  const base = `health.rule.${f.rule}`
  return {
    title: w.tCode(`${base}.title`, params),
    why: w.tCode(`${base}.why`, params),
    fix: w.tCode(`${base}.fix`, params),
    record: `${f.record.type.toUpperCase()} ${f.record.host} ${f.record.value}`,
  }
}
