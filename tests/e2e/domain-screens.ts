/** Opening a domain's page on one tab, as a user does: from the Domains list, by its name. */
import type { Page } from '@playwright/test'
import { expect } from './fixtures'

/** The words of the screen's language that the way there reads (English unless given). */
const ENGLISH = { domains: 'Domains', filter: 'Filter' }

export async function openDomain(
  app: Page,
  name: string,
  tab: string,
  words: { domains: string; filter: string } = ENGLISH,
) {
  await app.getByRole('navigation').getByRole('link', { name: words.domains, exact: true }).click()
  // The Domains screen is loaded lazily: until its heading shows, "Filter" may be the previous screen's.
  await expect(app.getByRole('heading', { level: 1, name: words.domains })).toBeVisible()
  await app.getByLabel(words.filter).fill(name)
  await app.getByRole('link', { name, exact: true }).click()
  await expect(app.getByRole('heading', { level: 1, name })).toBeVisible()
  await app.getByRole('tab', { name: tab, exact: true }).click()
  return app.getByRole('tabpanel', { name: tab, exact: true })
}
