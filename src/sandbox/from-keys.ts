/** An object with one member per key. Object.fromEntries alone loses the keys' type, so the one cast it needs is here. */
export function fromKeys<K extends string, V>(keys: readonly K[], valueOf: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((k) => [k, valueOf(k)])) as Record<K, V>
}
