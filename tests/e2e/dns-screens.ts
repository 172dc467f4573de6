/** What the DNS specs share: a domain on the first DNS service, the last save sent, opening a zone's editor and writing its raw text. */
import type { Page } from '@playwright/test'
import { z } from 'zod'
import type { Sandbox } from '../../src/sandbox'
import { sentBody } from '../helpers/sent-body'
import { expect } from './fixtures'

export const svc1Domain = (sb: Sandbox) => sb.state.domains.find((d) => d.ns[0] === 'ns1.svc1.example.net')!
export const lastDnsSet = (sb: Sandbox) => sb.received.filter((r) => r.endpoint === 'domains.dns.set').at(-1)
/** The zone text a DNS save sent (`records`), as the service received it. */
export const sentRecords = (request: { body: unknown } | undefined): string =>
  sentBody(request, z.object({ records: z.string() })).records

export async function openZone(app: Page, name: string) {
  await app.getByRole('navigation').getByRole('link', { name: 'DNS', exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: 'DNS' })).toBeVisible()
  await app.getByLabel('Filter').fill(name)
  await app.getByRole('link', { name, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name: `DNS records of ${name}` })).toBeVisible()
}

/** The open editor switched to raw text, the zone written there whole and left (its check runs on leaving); the text box, for what a spec reads of it after. */
export async function writeRawRecords(app: Page, text: string) {
  await app.getByRole('button', { name: 'Raw text' }).click()
  const box = app.getByLabel('Records, one per line: type host value')
  await box.fill(text)
  await box.blur()
  return box
}
