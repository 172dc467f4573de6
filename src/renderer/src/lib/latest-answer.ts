/**
 * Asks of main whose answers may arrive out of order, where only the newest counts: an answer to an earlier ask that
 * arrives after a later one's would otherwise replace the newer with the older.
 */

/** A taker for one kind of ask: each answer passed through it comes back, or undefined when a later ask was made meanwhile. */
export function latestAnswer(): <T extends object>(answer: Promise<T>) => Promise<T | undefined> {
  let asked = 0
  return async (answer) => {
    const ask = ++asked
    const value = await answer
    return ask === asked ? value : undefined
  }
}
