import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { currentNotice, dismissNotice, notify, screenChanged, screenChanging } from '../../src/renderer/src/lib/notify'

// The success line and screen changes, on a clock the test sets: a change is the action's own when it
// starts just after the notice, however long the new screen's code then takes to load.
describe('a notice across a screen change', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-12-02T10:00:00Z'))
    dismissNotice()
  })
  afterEach(() => vi.useRealTimers())

  it('goes along with the action’s own change, even when the screen takes seconds to load', () => {
    notify('Switched to the account “Second”.')
    screenChanging()
    vi.setSystemTime(Date.now() + 5000)
    screenChanged('/domains/a.example', '/expiring')
    expect(currentNotice.value?.text).toBe('Switched to the account “Second”.')
  })

  it('goes when the user moves to another screen later', () => {
    notify('2 items renewed.')
    vi.setSystemTime(Date.now() + 3000)
    screenChanging()
    screenChanged('/domains', '/expiring')
    expect(currentNotice.value).toBeUndefined()
  })

  it('stays when the route does not change', () => {
    notify('Saved.')
    vi.setSystemTime(Date.now() + 3000)
    screenChanging()
    screenChanged('/expiring', '/expiring')
    expect(currentNotice.value?.text).toBe('Saved.')
  })

  it('goes by itself after a few seconds', () => {
    notify('Saved.')
    vi.advanceTimersByTime(8000)
    expect(currentNotice.value).toBeUndefined()
  })
})
