/**
 * What the journal keeps of the service's answers (at-rest.ts): what a job's record needs (states,
 * flags, ids, dates, codes), never a contact, an address or a secret the service repeats.
 */
import { describe, expect, it } from 'vitest'
import { journaledError, journaledLoggedText, journaledResult, secretsOf } from '../../src/main/jobs/ledger/at-rest'

const person = {
  firstname: 'Taro',
  lastname: 'Yamada',
  address1: '1-2-3 Chiyoda',
  phone: '0312345678',
  email: 'taro@example.jp',
  country: 'JP',
}
const whoisAnswer = {
  domainid: 42,
  domainname: 'example.jp',
  whoisproxy: '0',
  contact: { registrant: person, admin: person },
  owner_name: 'Taro Yamada',
  expirationdate: '2027-01-01',
  autorenew: '1',
}

describe('the journal’s reduction of answers', () => {
  it('keeps ids, dates and flags of a WHOIS answer, and none of its people', () => {
    expect(journaledResult(whoisAnswer, [])).toEqual({
      domainid: 42,
      domainname: 'example.jp',
      whoisproxy: '0',
      expirationdate: '2027-01-01',
      autorenew: '1',
    })
    expect(JSON.stringify(journaledResult([whoisAnswer], []))).not.toMatch(/Taro|Yamada|Chiyoda|0312345678|taro@/)
  })

  it('keeps a logged answer’s results reduced and its error words without the job’s secrets', () => {
    const secrets = secretsOf([{ domain: 'x.com', authcode: 'AC-SECRET-77' }])
    const logged = journaledLoggedText(
      JSON.stringify({
        results: whoisAnswer,
        request_id: 'r1',
        errors: { code: 400, message: 'authcode AC-SECRET-77 is not valid' },
      }),
      secrets,
    )
    expect(JSON.parse(logged)).toEqual({
      results: journaledResult(whoisAnswer, []),
      request_id: 'r1',
      errors: { code: 400, message: 'authcode [redacted] is not valid' },
    })
  })

  it('checks an error’s service words and text parameters against every secret of the job', () => {
    const secrets = secretsOf([
      { domain: 'a.com', authcode: 'AC-ONE-1234' },
      { domain: 'b.com', password: 'ddns-pass-5678' },
    ])
    const e = journaledError(
      {
        kind: 'bad-request',
        code: 'error.bad-request',
        serviceMessage: 'authcode AC-ONE-1234 / ddns-pass-5678',
        params: { detail: 'AC-ONE-1234' },
      },
      secrets,
    )
    expect(JSON.stringify(e)).not.toMatch(/AC-ONE-1234|ddns-pass-5678/)
  })
})
