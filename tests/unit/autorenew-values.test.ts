/**
 * The service's own values: auto-renewal "on" is any non-zero number (the live service writes 10),
 * and a write turning it on sends the account's own value; the log is searched only when it really
 * comes newest first.
 */
import { describe, expect, it } from 'vitest'
import { domainAutorenew, serverAutorenew } from '@shared/service/autorenew'
import { AutorenewOnValues } from '../../src/main/reads/learned-autorenew'
import { inServiceValues } from '../../src/main/jobs/in-service-values'
import { newestFirst } from '../../src/main/jobs/log-check'
import { serviceKeptFindingsOf } from '../../src/main/jobs/operations'
import { recording } from '../helpers/live-fixtures'
import { domainAutorenewSchema } from '@shared/endpoints/decoders'

describe('auto-renewal values', () => {
  it('reads the service’s own sample (autorenew 1, the two settings 10) as on, for the domain’s own reason and the account’s', () => {
    const sample = domainAutorenewSchema.parse(recording('autorenew-on.json').exchanges[0]!.response.body.results)
    expect(domainAutorenew(sample)).toEqual({ on: true, reason: 'both' })
    expect(domainAutorenew({ autorenew: 1, autorenew_all: 0, autorenew_domain: 10 })).toEqual({
      on: true,
      reason: 'own',
    })
    expect(serverAutorenew({ autorenew: 1, autorenew_all: 10, autorenew_server: 0 })).toEqual({
      on: true,
      reason: 'account',
    })
    expect(domainAutorenew({ autorenew: 0, autorenew_all: 0, autorenew_domain: 0 })).toEqual({
      on: false,
      reason: 'none',
    })
  })

  it('never calls 10 against 1 a change the service made', () => {
    expect(
      serviceKeptFindingsOf(
        'domains.autorenew.set',
        { autorenew_domain: 1 },
        { autorenew: 1, autorenew_all: 0, autorenew_domain: 10 },
      ),
    ).toEqual([])
    expect(serviceKeptFindingsOf('servers.autorenew.set', { autorenew_server: 10 }, { autorenew_server: '0' })).toEqual(
      [{ code: 'serviceKept.valueChanged', params: { field: 'autorenew_server', sent: '10', kept: '0' } }],
    )
  })

  it('sends "on" as the account’s own value, 1 when none was seen; off stays 0, and other operations are untouched', () => {
    expect(
      inServiceValues('domains.autorenew.set', { domain: 'a.example', autorenew_all: 0, autorenew_domain: 1 }, 10),
    ).toEqual({ domain: 'a.example', autorenew_all: 0, autorenew_domain: 10 })
    expect(inServiceValues('servers.autorenew.set', { kind: 'a', webid: 3, autorenew_server: 7 }, undefined)).toEqual({
      kind: 'a',
      webid: 3,
      autorenew_server: 1,
    })
    expect(inServiceValues('domains.transferlock.set', { domain: 'a.example', transfer_lock: 1 }, 10)).toEqual({
      domain: 'a.example',
      transfer_lock: 1,
    })
  })
})

describe('learning what the service writes for on', () => {
  it('takes the first setting that is on from any answer, keeps the last learned, and forgets a removed account', () => {
    const values = new AutorenewOnValues()
    values.learn('a', [{ autorenew: 0, autorenew_all: 0, autorenew_server: 0 }])
    expect(values.get('a')).toBeUndefined()
    values.learn('a', [
      { autorenew: 1, autorenew_all: 0, autorenew_server: 0 },
      { autorenew: 1, autorenew_all: 0, autorenew_server: 10 },
    ])
    expect(values.get('a')).toBe(10)
    values.learn('a', { domainid: 1, records: 'a @ 192.0.2.1' })
    expect(values.get('a')).toBe(10)
    values.learn('b', { autorenew_domain: 1 })
    expect([values.get('a'), values.get('b')]).toEqual([10, 1])
    values.forget('a')
    expect(values.get('a')).toBeUndefined()
  })
})

describe('newest first, checked', () => {
  const entry = (datetime: string) => ({
    request_id: datetime,
    datetime,
    method: 'GET',
    path: '/v1/domains',
    request: '',
    response: '',
    addr: '',
  })
  it('trusts a page whose times never rise, and not one that comes oldest first', () => {
    expect(
      newestFirst([entry('2026-11-23 10:00:02'), entry('2026-11-23 10:00:02'), entry('2026-11-23 09:59:59')]),
    ).toBe(true)
    expect(newestFirst([entry('2026-11-23 09:59:59'), entry('2026-11-23 10:00:02')])).toBe(false)
    expect(newestFirst([])).toBe(true)
  })
})
