/**
 * An object with one member per key. Object.fromEntries alone loses the keys' type; the guard
 * below checks that every key got its member, so the type is earned, not asserted.
 */
export function fromKeys<K extends string, V>(keys: readonly K[], valueOf: (key: K) => V): Record<K, V> {
  const out: Partial<Record<K, V>> = {}
  for (const k of keys) out[k] = valueOf(k)
  if (!hasEvery(out, keys)) throw new Error('fromKeys: a key without its member')
  return out
}

function hasEvery<K extends string, V>(o: Partial<Record<K, V>>, keys: readonly K[]): o is Record<K, V> {
  return keys.every((k) => Object.prototype.hasOwnProperty.call(o, k))
}
