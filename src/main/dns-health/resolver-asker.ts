/**
 * The DNS asker of the health rules: node's resolver (c-ares, a DNS library: no packets of
 * ours) pointed at the resolvers given, or the machine's. Every question is bounded in time
 * (one try, `timeoutMs`) and asked once per run: the answers are cached for the asker's life.
 */
import { Resolver } from 'node:dns/promises'
import type { Asked, DnsAsker } from '@shared/dns/health/asked'

/** Codes that mean "no such name or no such record": an answer, not a failure to ask. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN'])

const codeOf = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unknown'

export interface ResolverAskerOptions {
  /** Resolvers as setServers takes them (`127.0.0.1:5353`); none: the machine's. */
  servers?: string[] | undefined
  timeoutMs?: number
}

/** The resolvers HOSTING_ADMIN_RESOLVERS names (`127.0.0.1:5353,192.0.2.53`); none: the machine's. */
export const resolversOf = (env: NodeJS.ProcessEnv): string[] =>
  (env.HOSTING_ADMIN_RESOLVERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export function resolverAsker(opts: ResolverAskerOptions = {}): DnsAsker & { questions(): number } {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 2000, tries: 1 })
  if (opts.servers && opts.servers.length > 0) resolver.setServers(opts.servers)
  const cache = new Map<string, Promise<Asked>>()
  const once = (key: string, run: () => Promise<string[]>): Promise<Asked> => {
    let answer = cache.get(key)
    if (!answer) {
      answer = run().then(
        (values): Asked => ({ ok: true, values }),
        (err: unknown): Asked => {
          const code = codeOf(err)
          return ABSENT.has(code) ? { ok: true, values: [] } : { ok: false, reason: code }
        },
      )
      cache.set(key, answer)
    }
    return answer
  }
  const both = async (name: string) => {
    // A name with only AAAA answers A with no data, and the other way round: both are asked.
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)])
    if (v4.status === 'fulfilled' && v4.value.length > 0) return v4.value
    if (v6.status === 'fulfilled' && v6.value.length > 0) return v6.value
    const failed = [v4, v6].find(
      (r): r is PromiseRejectedResult => r.status === 'rejected' && !ABSENT.has(codeOf(r.reason)),
    )
    if (failed) throw failed.reason
    return []
  }
  return {
    // The resolver hands each string's bytes over as Latin-1; a TXT record's text is UTF-8.
    txt: (name) =>
      once(`txt ${name}`, async () =>
        (await resolver.resolveTxt(name)).map((chunks) => Buffer.from(chunks.join(''), 'latin1').toString('utf8')),
      ),
    addresses: (name) => once(`addr ${name}`, () => both(name)),
    cname: (name) => once(`cname ${name}`, () => resolver.resolveCname(name)),
    questions: () => cache.size,
  }
}
