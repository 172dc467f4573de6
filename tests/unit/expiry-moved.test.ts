import { describe, expect, it } from 'vitest'
import type { JobItemView } from '@shared/jobs'
import { expiryMoved } from '../../src/renderer/src/lib/data/expiry-moved'

const item = (over: Partial<JobItemView>): JobItemView => ({
  target: 'a.example',
  label: 'a.example',
  params: { domain: 'a.example', years: 1 },
  state: 'unknown',
  effect: { from: '2027-01-10', to: '2028-01-10' },
  sentAt: '2026-11-25T10:00:00.000Z',
  ...over,
})

describe('an unknown renewal against a later read', () => {
  const dates: Record<string, string> = { 'a.example': '2028-01-10', 'b.example': '2027-01-10' }
  const read = { readAt: '2026-11-25T10:05:00.000Z', expiryOf: (d: string) => dates[d] }
  it('says the expiry moved when a read after the send shows it past the date it had', () => {
    expect(expiryMoved([item({})], read)).toEqual([
      { index: 0, label: 'a.example', from: '2027-01-10', to: '2028-01-10' },
    ])
  })
  it('says nothing for an expiry that did not move, a read from before the send, or an item that is not unknown', () => {
    expect(expiryMoved([item({ label: 'b.example', params: { domain: 'b.example', years: 1 } })], read)).toEqual([])
    expect(expiryMoved([item({})], { ...read, readAt: '2026-11-25T09:59:00.000Z' })).toEqual([])
    expect(expiryMoved([item({ state: 'done' })], read)).toEqual([])
  })
})
