/**
 * Waits until every authoritative nameserver of a zone serves a TXT value: each nameserver is
 * asked directly (a resolver of its own pointed at that server's addresses, no cache), never
 * through the machine's recursive resolver, which may answer from a cache for minutes. Ends when
 * all serve it or at the time-out, whichever comes first.
 */
import { lookup, Resolver } from 'node:dns/promises'

export interface Nameserver {
  name: string
  /** Addresses as `setServers` takes them: `192.0.2.1`, `2001:db8::1`, `127.0.0.1:5300`. */
  servers: string[]
}

/**
 * Addresses given for nameserver names, as HOSTING_ADMIN_NS_ADDRESSES writes them
 * (`ns1.example.net=192.0.2.1,ns2.example.net=127.0.0.1:5300`): for a split-horizon network, or
 * the tests' nameservers on loopback. Names not given are looked up as usual.
 */
export function addressMapOf(text: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const pair of (text ?? '').split(',')) {
    const [name, address] = pair.split('=').map((s) => s.trim())
    if (!name || !address) continue
    const key = name.toLowerCase().replace(/\.$/, '')
    map.set(key, [...(map.get(key) ?? []), address])
  }
  return map
}

export async function nameserversOf(names: string[], given: Map<string, string[]>): Promise<{ nameservers: Nameserver[]; unresolved: { name: string; reason: string }[] }> {
  const nameservers: Nameserver[] = []
  const unresolved: { name: string; reason: string }[] = []
  for (const raw of names) {
    const name = raw.toLowerCase().replace(/\.$/, '')
    const mapped = given.get(name)
    if (mapped) {
      nameservers.push({ name, servers: mapped })
      continue
    }
    try {
      const found = await lookup(name, { all: true })
      nameservers.push({ name, servers: found.map((a) => a.address) })
    } catch (err) {
      unresolved.push({ name, reason: typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown' })
    }
  }
  return { nameservers, unresolved }
}

/** The TXT values a nameserver answers for a name (each value's strings joined); none when it has none. */
async function txtAt(ns: Nameserver, fqdn: string, queryTimeoutMs: number): Promise<string[]> {
  const resolver = new Resolver({ timeout: queryTimeoutMs, tries: 1 })
  resolver.setServers(ns.servers)
  try {
    return (await resolver.resolveTxt(fqdn)).map((chunks) => chunks.join(''))
  } catch {
    // No such name yet, no answer, refused: not served yet, asked again next round.
    return []
  }
}

export interface WaitOptions {
  fqdn: string
  value: string
  timeoutMs: number
  intervalMs: number
  onServed(ns: Nameserver, afterMs: number): void
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/** The nameservers that did not serve the value before the time-out (none: all serve it). */
export async function waitUntilServed(nameservers: Nameserver[], opts: WaitOptions): Promise<Nameserver[]> {
  const now = opts.now ?? Date.now
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const startedAt = now()
  let pending = [...nameservers]
  for (;;) {
    const answers = await Promise.all(pending.map((ns) => txtAt(ns, opts.fqdn, Math.min(2000, Math.max(200, opts.timeoutMs)))))
    const still: Nameserver[] = []
    pending.forEach((ns, i) => {
      if (answers[i]?.includes(opts.value)) opts.onServed(ns, now() - startedAt)
      else still.push(ns)
    })
    pending = still
    if (pending.length === 0) return []
    const left = opts.timeoutMs - (now() - startedAt)
    if (left <= 0) return pending
    await sleep(Math.min(opts.intervalMs, left))
  }
}
