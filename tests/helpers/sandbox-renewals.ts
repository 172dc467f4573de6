/**
 * A job runner's accounts on one sandbox account (read-write, its full key), and the domains
 * the sandbox has renewed (each accepted renewal, in the order received): what the runner tests
 * of the journal's order and failures send and count.
 */
import { z } from 'zod'
import type { JobRequest } from '@shared/jobs'
import { createApiClient } from '../../src/main/http'
import type { JobAccounts } from '../../src/main/jobs/runner-options'
import type { Sandbox } from '../../src/sandbox'
import { sentBody } from './sent-body'

export const sandboxJobAccounts = (sb: Sandbox): JobAccounts => ({
  client: async () => createApiClient({ baseUrl: sb.url, apiKey: sb.keys.full, serverPaths: sb.serverPaths }),
  nameOf: () => 'Main',
  readOnly: () => false,
})

/** A runner's preparation of a one-year renewal of these domains on the sandbox account, one at a time. */
export const renewalOf = (names: readonly string[]): JobRequest => ({
  accountId: 'main',
  operation: 'domains.expiration.renew',
  items: names.map((domain) => ({ params: { domain, years: 1 } })),
  concurrency: 1,
})

export const renewedDomains = (sb: Sandbox): string[] =>
  sb.received
    .filter((r) => r.endpoint === 'domains.expiration.renew' && r.status === 200)
    .map((r) => String(sentBody(r, z.object({ domain: z.string() })).domain))
