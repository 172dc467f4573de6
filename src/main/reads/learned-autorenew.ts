/**
 * What each account's service writes for an auto-renewal setting that is on, learned from the
 * answers main reads (the live service writes 10); a job turning a setting on sends it
 * (jobs/in-service-values.ts).
 */

const SETTING_FIELDS = ['autorenew_all', 'autorenew_domain', 'autorenew_server'] as const

/** The first auto-renewal setting that is on in an answer (an item or a list of them). */
function onValueIn(results: unknown): number | undefined {
  const items: readonly unknown[] = Array.isArray(results) ? results : [results]
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue
    for (const f of SETTING_FIELDS) {
      const v: unknown = Reflect.get(item, f)
      if (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 255) return v
    }
  }
  return undefined
}

/**
 * What each account's service has lately written for an auto-renewal setting that is on, learned
 * from every answer main reads (like the product words, from the service's own data); the
 * stored lists answer after a restart until something is read.
 */
export class AutorenewOnValues {
  private readonly seen = new Map<string, number>()

  learn(accountId: string, results: unknown): void {
    const v = onValueIn(results)
    if (v !== undefined) this.seen.set(accountId, v)
  }

  get(accountId: string): number | undefined {
    return this.seen.get(accountId)
  }

  forget(accountId: string): void {
    this.seen.delete(accountId)
  }
}
