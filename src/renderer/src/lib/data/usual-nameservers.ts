/**
 * The nameservers an account usually gives its domains: the set most of its domains use (names
 * compared without case or final dot, order kept from the first domain that uses it), with how
 * many use it. None when no set is shared by at least two domains.
 */
export function usualNameservers(
  domains: readonly { ns: readonly string[] }[],
): { ns: string[]; count: number; total: number } | undefined {
  const counts = new Map<string, { ns: string[]; count: number }>()
  for (const d of domains) {
    const ns = d.ns.map((h) => h.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean)
    if (ns.length === 0) continue
    const key = [...ns].sort().join(' ')
    const seen = counts.get(key)
    if (seen) seen.count++
    else counts.set(key, { ns, count: 1 })
  }
  let best: { ns: string[]; count: number } | undefined
  for (const c of counts.values()) if (!best || c.count > best.count) best = c
  return best && best.count >= 2 ? { ...best, total: domains.length } : undefined
}
