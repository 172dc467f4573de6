/**
 * The Expiring screen asks main for the open reminders when it opens and again once every part is read
 * (useOpenReminders, through latestAnswer). Main may answer the first after the second (in team mode the first, with
 * nothing stored yet, also asks the team database what colleagues noticed): the older answer must not replace the
 * newer. It did, and CI's walk found no reminder to acknowledge on a screen whose rows were all read.
 */
import { describe, expect, it } from 'vitest'
import { latestAnswer } from '../../src/renderer/src/lib/latest-answer'

/** An answer the test releases when it chooses. */
function held<T>() {
  let release: (value: T) => void = () => {}
  const answer = new Promise<T>((resolve) => (release = resolve))
  return { answer, release }
}

describe('latestAnswer', () => {
  it('keeps the answer to the latest ask when an earlier one arrives after it', async () => {
    const latest = latestAnswer()
    const first = held<{ reminders: string[] }>()
    const second = held<{ reminders: string[] }>()
    const takenFirst = latest(first.answer)
    const takenSecond = latest(second.answer)
    second.release({ reminders: ['read.example'] })
    expect(await takenSecond).toEqual({ reminders: ['read.example'] })
    first.release({ reminders: [] })
    expect(await takenFirst).toBeUndefined()
  })

  it('takes every answer that arrives in order, each ask after the last was answered', async () => {
    const latest = latestAnswer()
    expect(await latest(Promise.resolve({ n: 1 }))).toEqual({ n: 1 })
    expect(await latest(Promise.resolve({ n: 2 }))).toEqual({ n: 2 })
  })

  it('keeps the asks of one taker apart from another', async () => {
    const reminders = latestAnswer()
    const other = latestAnswer()
    const mine = held<{ n: number }>()
    const taken = reminders(mine.answer)
    await other(Promise.resolve({ n: 0 }))
    mine.release({ n: 1 })
    expect(await taken).toEqual({ n: 1 })
  })
})
