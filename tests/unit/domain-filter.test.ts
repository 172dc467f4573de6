import { describe, expect, it } from 'vitest'
import { matchesDomainFilter, parseDomainFilter } from '../../src/renderer/src/lib/data/domain-filter'

const row = {
  name: 'glacier-shop.example',
  registrar: 'acme registrar',
  nameservers: () => 'ns1.glacier-dns.example.com, ns2.glacier-dns.example.com',
}
const other = { name: 'quartz.example', registrar: 'acme registrar', nameservers: () => 'ns1.glacier-dns.example.com' }

describe('the domain filter', () => {
  it('matches plain text against the name or registrar only, never the nameservers the table hides', () => {
    expect(matchesDomainFilter(parseDomainFilter(' Glacier '), row)).toBe(true)
    expect(matchesDomainFilter(parseDomainFilter('glacier'), other)).toBe(false)
    expect(matchesDomainFilter(parseDomainFilter('ACME'), other)).toBe(true)
  })

  it('matches one field asked for by its name', () => {
    expect(matchesDomainFilter(parseDomainFilter('ns:glacier'), other)).toBe(true)
    expect(matchesDomainFilter(parseDomainFilter('NS: glacier-dns'), other)).toBe(true)
    expect(matchesDomainFilter(parseDomainFilter('name:acme'), other)).toBe(false)
    expect(matchesDomainFilter(parseDomainFilter('registrar:acme'), other)).toBe(true)
    expect(matchesDomainFilter(parseDomainFilter('ns:'), other)).toBe(true)
  })

  it('reads an unknown prefix as plain text', () => {
    expect(parseDomainFilter('whois:on')).toEqual({ field: undefined, text: 'whois:on' })
  })
})
