/**
 * The domain list's nameserver texts: the text shown and the one the `ns:` filter searches, and one pair of them per
 * distinct set of nameservers within a list, shared by the domains that have it (the window's heap at 100,000
 * domains held a pair per domain, issue 54), none shared with another list's.
 */
import { describe, expect, it } from 'vitest'
import { nameserverTexts } from '../../src/renderer/src/lib/text/nameserver-text'

describe('nameserverTexts', () => {
  it('joins the nameservers as shown, and gives the filter the same in lower case', () => {
    const textOf = nameserverTexts()
    expect(textOf(['NS1.Example.NET', 'ns2.example.net'])).toEqual({
      text: 'NS1.Example.NET, ns2.example.net',
      search: 'ns1.example.net, ns2.example.net',
    })
    expect(textOf([])).toEqual({ text: '', search: '' })
  })

  it('gives the domains of one list with the same nameservers one pair of texts, other sets their own', () => {
    const textOf = nameserverTexts()
    const first = textOf(['ns1.example.net', 'ns2.example.net'])
    // A new array each, as each domain's item has its own.
    expect(textOf(['ns1.example.net', 'ns2.example.net'])).toBe(first)
    const other = textOf(['ns1.example.org', 'ns2.example.org'])
    expect(other).not.toBe(first)
    expect(other.text).toBe('ns1.example.org, ns2.example.org')
    // The order is the domain's: the same names in another order are another text.
    expect(textOf(['ns2.example.net', 'ns1.example.net']).text).toBe('ns2.example.net, ns1.example.net')
  })

  it("shares nothing with another list's mapper, so a list's texts go with it", () => {
    const a = nameserverTexts()(['ns1.example.net'])
    const b = nameserverTexts()(['ns1.example.net'])
    expect(b).toEqual(a)
    expect(b).not.toBe(a)
  })
})
