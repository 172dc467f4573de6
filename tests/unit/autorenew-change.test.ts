/** An auto-renewal save from one item's page: the account-wide flag is sent, and confirmed, only when it changed. */
import { describe, expect, it } from 'vitest'
import { accountWideChange, serviceFlag } from '../../src/renderer/src/lib/data/autorenew-change'

const words = { on: 'all on', off: 'all off' }

describe('accountWideChange', () => {
  it('sends nothing and asks nothing when the account-wide setting is as the service reported it', () => {
    expect(accountWideChange(1, true, words)).toEqual({ params: {}, confirmation: undefined })
    expect(accountWideChange(0, false, words)).toEqual({ params: {}, confirmation: undefined })
    expect(accountWideChange(undefined, false, words)).toEqual({ params: {}, confirmation: undefined })
  })

  it('sends the new flag and asks first, in the words of the way it goes', () => {
    const on = accountWideChange(0, true, words)
    expect(on.params).toEqual({ autorenew_all: 1 })
    expect(on.confirmation?.lines).toEqual(['all on'])
    expect(on.confirmation?.title).toBeTruthy()
    expect(on.confirmation?.confirmLabel).toBeTruthy()
    const off = accountWideChange(1, false, words)
    expect(off.params).toEqual({ autorenew_all: 0 })
    expect(off.confirmation?.lines).toEqual(['all off'])
  })

  it('gives a setting as the service takes it', () => {
    expect([serviceFlag(true), serviceFlag(false)]).toEqual([1, 0])
  })
})
