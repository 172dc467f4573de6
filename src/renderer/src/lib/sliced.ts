/**
 * Work over a whole list done in slices on the window's main thread (issue 54): sorting or
 * filtering 100,000 rows at once held the thread for 100 to 300 ms, a key or a frame waiting all
 * that time. The work is a generator that yields between steps of a few thousand rows; run in
 * slices it gives the event loop back every SLICE_MS, run at once (runNow) it gives the same
 * result.
 */
export type Sliced<T> = Generator<void, T, void>

/** Rows between two pauses of sliced work: a few milliseconds of it. */
export const STEP = 4096

/** The rows that match, in their order. */
export function* filterSliced<Row>(rows: readonly Row[], match: (row: Row) => boolean): Sliced<Row[]> {
  const out: Row[] = []
  for (let i = 0; i < rows.length; i++) {
    if (match(rows[i]!)) out.push(rows[i]!)
    if (i % STEP === STEP - 1) yield
  }
  return out
}

/** A slice's length: well under the 50 ms of a long task, with room for the frame drawn after it. */
const SLICE_MS = 12

/** The work run to its end at once (a short list, or a test). */
export function runNow<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next()
    if (step.done) return step.value
  }
}

/** The work run for up to `ms`: its result when it ended, or undefined when steps remain. */
function runFor<T>(work: Sliced<T>, ms: number): { value: T } | undefined {
  const until = performance.now() + ms
  for (;;) {
    const step = work.next()
    if (step.done) return { value: step.value }
    if (performance.now() >= until) return undefined
  }
}

/**
 * The next task of the event loop: a message, not a timer (timers set from timers wait 4 ms each, and a
 * test's clock holds timers, not messages).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel()
    port1.addEventListener('message', () => {
      port1.close()
      resolve()
    })
    port1.start()
    port2.postMessage(null)
  })
}

export interface SlicedRunner {
  /**
   * Runs the work, replacing any still running: at once to its end when `now`, otherwise in slices
   * of SLICE_MS (the first, in the caller's task, of half that), one task each. `apply` gets its result: before this returns when the first slice
   * ended it (a short list shows its result in the same frame), otherwise in the task after the
   * last slice.
   */
  run<T>(work: Sliced<T>, apply: (value: T) => void, now?: boolean): void
  /** Stops the work running (its result is never applied). */
  stop(): void
}

/**
 * One piece of work at a time; `onBusy` hears when work goes on past its first slice and when it ends.
 * `sliceMs` 0: one step a slice (a test's slices, whatever the machine's speed).
 */
export function slicedRunner(onBusy: (busy: boolean) => void, sliceMs = SLICE_MS): SlicedRunner {
  let generation = 0
  let busy = false
  const setBusy = (b: boolean) => {
    if (b !== busy) onBusy((busy = b))
  }
  return {
    run<T>(work: Sliced<T>, apply: (value: T) => void, now = false) {
      const own = ++generation
      // The first slice is half as long: it runs in the caller's task, after the caller's own work
      // (a 100,000-row table's sort keys: 15 ms of that task, whose first slice made it over 50 ms).
      const first = runFor(work, now ? Infinity : sliceMs / 2)
      if (first) {
        setBusy(false)
        apply(first.value)
        return
      }
      setBusy(true)
      void (async () => {
        let done: { value: T } | undefined
        // Bounded by the work's own steps: each slice runs at least one. The result is applied in a
        // task of its own: what it sets off (the table drawn again) on top of a slice of up to
        // SLICE_MS made one task of over 50 ms at 100,000 rows.
        for (;;) {
          await nextTask()
          if (own !== generation) return
          if (done) {
            setBusy(false)
            apply(done.value)
            return
          }
          done = runFor(work, sliceMs)
        }
      })()
    },
    stop() {
      generation++
      setBusy(false)
    },
  }
}
