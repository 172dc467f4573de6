import { z } from 'zod'

/**
 * An object with one member per key. Object.fromEntries alone loses the keys' type; the record
 * schema checks that every key is there, so the type is earned, not asserted (each value is
 * valueOf's, so the values need no check).
 */
export function fromKeys<const K extends string, V>(keys: readonly [K, ...K[]], valueOf: (key: K) => V): Record<K, V> {
  const anyValue = z.custom<V>(() => true)
  return z.record(z.enum(keys), anyValue).parse(Object.fromEntries(keys.map((k) => [k, valueOf(k)])))
}
