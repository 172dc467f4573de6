/**
 * Drift compares only what both readings hold (issue 53 point 5): a member one reading of a list
 * lacks was not read, and unknown against a value is no change (it read as "on → none").
 */
import { describe, expect, it } from 'vitest'
import { changedAspects } from '../../src/main/store/drift'

const FIELDS = ['autorenew', 'autorenew_all', 'autorenew_domain']
const reading = (item: Record<string, unknown>) => new Map([['a.example', JSON.stringify(item)]])

describe('drift of a watched aspect', () => {
  it('a member missing from one reading is no change', () => {
    const before = reading({ domainname: 'a.example', autorenew: 1, autorenew_all: 10, autorenew_domain: 10 })
    const after = reading({ domainname: 'a.example', autorenew_domain: 10, registrar: 'x' })
    expect(changedAspects(FIELDS, before, after)).toEqual([])
    expect(changedAspects(FIELDS, after, before)).toEqual([])
  })

  it('a real change is kept, with only the members both readings hold', () => {
    const before = reading({ domainname: 'a.example', autorenew: 1, autorenew_all: 10, autorenew_domain: 10 })
    const after = reading({ domainname: 'a.example', autorenew_all: 10, autorenew_domain: 0 })
    expect(changedAspects(FIELDS, before, after)).toEqual([
      {
        subject: 'a.example',
        before: { autorenew_all: 1, autorenew_domain: 1 },
        after: { autorenew_all: 1, autorenew_domain: 0 },
      },
    ])
  })
})
