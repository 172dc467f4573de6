/**
 * The facts of every write (src/main/jobs/operations.ts): complete by type, and each one names
 * parameters the operation really has, so no write falls back to "the account" as its target.
 */
import { describe, expect, it } from 'vitest'
import { WRITE_FACTS, factsOf } from '../../src/main/jobs/operations'
import { endpoints, WRITE_ENDPOINT_NAMES } from '../../src/shared/endpoints/table'
import { targetOf } from '../../src/main/jobs/targets'

describe('the facts of every write', () => {
  it.each(WRITE_ENDPOINT_NAMES)('%s names parameters it has, and a target of its own', (name) => {
    const facts = factsOf(name)
    const params = Object.keys(endpoints[name].params.shape)
    expect(facts.target.length, 'a target').toBeGreaterThan(0)
    for (const p of [...facts.target, ...(facts.autorenew ?? [])]) expect(params, p).toContain(p)
    const sample = Object.fromEntries(facts.target.map((p) => [p, `${p}-value`]))
    expect(targetOf(name, sample)).not.toBe('account')
    if (facts.zone || facts.readBack) expect(facts.target).toContain('domain')
  })

  it('covers every write and nothing else', () => {
    expect(Object.keys(WRITE_FACTS).sort()).toEqual([...WRITE_ENDPOINT_NAMES].sort())
  })
})
