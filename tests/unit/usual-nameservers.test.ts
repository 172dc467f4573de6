import { describe, expect, it } from 'vitest'
import { usualNameservers } from '../../src/renderer/src/lib/data/usual-nameservers'

describe('the nameservers an account usually uses', () => {
  it('is the set most domains share, whatever the order, case or final dot', () => {
    const r = usualNameservers([
      { ns: ['ns1.example.net', 'ns2.example.net'] },
      { ns: ['NS2.example.net.', 'ns1.example.net'] },
      { ns: ['ns1.other.org', 'ns2.other.org'] },
      { ns: [] },
    ])
    expect(r).toEqual({ ns: ['ns1.example.net', 'ns2.example.net'], count: 2, total: 4 })
  })
  it('is none when no set is shared by two domains', () => {
    expect(usualNameservers([{ ns: ['a.example', 'b.example'] }, { ns: ['c.example', 'd.example'] }])).toBeUndefined()
    expect(usualNameservers([])).toBeUndefined()
  })
})
