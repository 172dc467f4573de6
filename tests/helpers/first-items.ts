/** A tuple of N items of T: what a test destructures from a list it made. */
type Items<T, N extends number, Acc extends T[] = []> = Acc['length'] extends N ? Acc : Items<T, N, [...Acc, T]>

function hasLength<T, N extends number>(items: T[], n: N): items is Items<T, N> {
  return items.length === n
}

/** The first n items of a list, typed as that many: fewer fails the test here, saying how many there were. */
export function firstItems<T, N extends number>(items: readonly T[], n: N): Items<T, N> {
  const head = items.slice(0, n)
  if (!hasLength(head, n)) throw new Error(`expected at least ${n} items, found ${items.length}`)
  return head
}
