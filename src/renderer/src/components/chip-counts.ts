/** How many items each value has: the counts a FilterChips row shows beside its values. */
export function chipCounts<T, V extends string>(items: readonly T[], valueOf: (item: T) => V): Map<V, number> {
  const counts = new Map<V, number>()
  for (const item of items) {
    const v = valueOf(item)
    counts.set(v, (counts.get(v) ?? 0) + 1)
  }
  return counts
}
