/**
 * Waits until every authoritative nameserver of a zone serves a TXT value: each nameserver is
 * asked directly (a resolver of its own pointed at that server's addresses, no cache), never
 * through the machine's recursive resolver, which may answer from a cache for minutes. Ends when
 * all serve it or at the time-out, whichever comes first.
 */
import { Resolver } from 'node:dns/promises'

// The delegated nameservers and their addresses are shared with served-against-saved (main/dns-health).
export { addressMapOf, nameserversOf, type Nameserver } from '../main/dns-health/nameservers'
import type { Nameserver } from '../main/dns-health/nameservers'

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
    const answers = await Promise.all(
      pending.map((ns) => txtAt(ns, opts.fqdn, Math.min(2000, Math.max(200, opts.timeoutMs)))),
    )
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
