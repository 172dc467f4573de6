/** The middle of the sorted figures (the upper middle of an even count); NaN for none, so a report shows the gap. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN
