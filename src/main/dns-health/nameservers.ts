/**
 * A zone's delegated nameservers as addresses to ask directly: the ACME wait (cli/propagation.ts)
 * and served-against-saved (served.ts) both ask each nameserver itself, never the machine's
 * recursive resolver, which may answer from a cache for minutes.
 */
import { lookup } from 'node:dns/promises'

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

export async function nameserversOf(
  names: string[],
  given: Map<string, string[]>,
): Promise<{ nameservers: Nameserver[]; unresolved: { name: string; reason: string }[] }> {
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
      unresolved.push({
        name,
        reason: typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown',
      })
    }
  }
  return { nameservers, unresolved }
}
