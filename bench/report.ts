export interface BenchResult {
  name: string
  lines: string[]
  /** Whether the targets were met in this run (reported, never asserted: machines are noisy). */
  ok: boolean
}
