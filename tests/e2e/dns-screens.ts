/** What the DNS specs share: a domain on the first DNS service, the last save sent, and opening a zone's editor. */
import type { Page } from '@playwright/test'
import { z } from 'zod'
import type { Sandbox } from '../../src/sandbox'
import { sentBody } from '../helpers/sent-body'
import { expect } from './fixtures'

export const svc1Domain = (sb: Sandbox) => sb.state.domains.find((d) => d.ns[0] === 'ns1.svc1.example.net')!
export const lastDnsSet = (sb: Sandbox) => sb.received.filter((r) => r.endpoint === 'domains.dns.set').at(-1)
/** The zone text a DNS save sent (`records`), as the service received it. */
export const sentRecords = (request: { body: unknown } | undefined): string => sentBody(request, z.object({ records: z.string() })).records

export async function openZone(app: Page, name: string) {
  await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'DNS' })).toBeVisible()
  await app.getByLabel('Filter').fill(name)
  await app.getByRole('link', { name, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: `DNS records of ${name}` })).toBeVisible()
}
