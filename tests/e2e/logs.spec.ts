/**
 * The API log: paged from the service in either order, filtered on what is loaded, and
 * an entry opened with its bodies pretty-printed.
 */
import { expect, snap, test } from './fixtures'

test('the log lists requests page by page, in either order, filters them, and opens one', async ({ app, harness }) => {
  const sb = await harness.demo()
  // Make some history: a few reads and one failing write.
  await app.getByRole('navigation').getByRole('link', { name: 'Service IPs' }).click()
  await expect(app.getByRole('table', { name: 'Service IPs' })).toBeVisible()
  sb.faults.inject('svcips.cache.delete', { status: 500, times: 1 })
  // The write goes as every write does: a job, prepared, then started with its confirmation's token.
  const { job, token } = await harness.services.jobs.prepare({ accountId: 'demo', operation: 'svcips.cache.delete', items: [{ params: { vipid: sb.state.svcips[0]!.vipid } }] })
  await harness.services.jobs.start(job.id, token)
  const sender = { url: harness.url, key: 'test', sendProgress: () => undefined, sendJob: () => true }
  for (let i = 0; i < 60; i++) await harness.services.router.dispatch('logs.list', { accountId: 'demo', limit: 1 }, sender)

  await app.getByRole('navigation').getByRole('link', { name: 'Logs' }).click()
  const table = app.getByRole('table', { name: 'Requests' })
  await expect(table.getByRole('row')).toHaveCount(51)
  const listCalls = () => sb.received.filter((r) => r.endpoint === 'logs.list' && r.query.limit === '50')
  expect(listCalls().at(-1)?.query).toMatchObject({ page: '1', order: '-datetime' })

  await app.getByRole('button', { name: 'Next page' }).click()
  await expect(app.getByText(/^Page 2:/)).toBeVisible()
  expect(listCalls().at(-1)?.query).toMatchObject({ page: '2' })
  await app.getByLabel('Order').selectOption({ label: 'Oldest first' })
  await expect(app.getByText(/^Page 1:/)).toBeVisible()
  expect(listCalls().at(-1)?.query).toMatchObject({ page: '1', order: 'datetime' })

  // Filters on what is loaded: the failing DELETE.
  await app.getByLabel('Method').selectOption('DELETE')
  await app.getByLabel('Path contains').fill('/cache')
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table.getByRole('row').nth(1)).toContainText('500')
  await snap(app, 'logs')

  await table.getByRole('row').nth(1).getByRole('link').click()
  const detail = app.getByRole('region', { name: /Log entry req-/ })
  await expect(detail).toContainText('DELETE')
  await expect(detail.locator('pre').nth(1)).toContainText('"code": 500')
})
