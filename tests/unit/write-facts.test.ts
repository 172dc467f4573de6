/**
 * The facts of every write (src/main/jobs/operations.ts): complete by type, and each one names
 * parameters the operation really has, so no write falls back to "the account" as its target.
 */
import { describe, expect, it } from 'vitest'
import { WRITE_FACTS, factsOf } from '../../src/main/jobs/operations'
import { endpoints, WRITE_ENDPOINT_NAMES } from '@shared/endpoints/table'
import { targetOf } from '../../src/main/jobs/targets'
import { LIST_SPECS } from '../../src/main/store/lists'

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

  it.each(WRITE_ENDPOINT_NAMES.filter((n) => factsOf(n).before))(
    '%s reads its value before from a list watched for its own subject and aspect, with members it sends',
    (name) => {
      const facts = factsOf(name)
      const watch = facts.before ? LIST_SPECS[facts.before].watch : null
      expect(watch).toMatchObject({ subjectKind: facts.subject, aspect: facts.aspect })
      const params = Object.keys(endpoints[name].params.shape)
      expect(watch?.fields.filter((f) => params.includes(f)).length, 'members the write sends').toBeGreaterThan(0)
    },
  )

  it('covers every write and nothing else', () => {
    expect(Object.keys(WRITE_FACTS).sort()).toEqual([...WRITE_ENDPOINT_NAMES].sort())
  })
})
