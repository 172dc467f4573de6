/**
 * A dynamic DNS update sent by the command line is not an API write (it goes to the service's
 * update address, without a key), so no job records it: it is added to the domain's history
 * here, through the contract's `history.recordDdns` channel, which the router takes from the
 * command line's sender only (its own services, or the running app's door: cli-server.ts).
 */
import { randomUUID } from 'node:crypto'
import type { PortfolioStoreAsync } from './store-async'

export interface DdnsUpdateRecord {
  accountId: string
  domain: string
  host: string
  ip: string
  ok: boolean
}

export async function recordDdnsUpdate(
  store: PortfolioStoreAsync,
  e: DdnsUpdateRecord,
  now: Date = new Date(),
): Promise<void> {
  await store.history.recordWrite({
    accountId: e.accountId,
    subjectKind: 'domain',
    subject: e.domain,
    aspect: 'dynamicdns',
    operation: 'ddns.update',
    purpose: 'cli',
    params: { host: e.host, ip: e.ip },
    outcome: e.ok ? 'done' : 'failed',
    jobId: `cli-ddns-${randomUUID()}`,
    itemIndex: 0,
    after: { host: e.host, ip: e.ip },
    at: now.toISOString(),
  })
}
