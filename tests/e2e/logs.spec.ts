/**
 * The API log: paged from the service in either order, filtered on what is loaded or on the
 * pages after it (with progress and stop), each request's HTTP status as the logged response
 * shows it, and an entry opened with its bodies pretty-printed (the response first when the
 * request failed).
 */
import type { Harness } from '../../support/harness'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import { expectNoAxeViolations } from './axe'

const sender = (harness: Harness) => ({
  url: harness.url,
  key: 'test',
  sendProgress: () => undefined,
  sendJob: () => true,
})

test('the log lists requests page by page, in either order, filters them, and opens one', async ({ app, harness }) => {
  const sb = await harness.demo()
  // Make some history: a few reads and one failing write.
  await app.getByRole('navigation').getByRole('link', { name: 'Service IPs' }).click()
  await expect(app.getByRole('table', { name: 'Service IPs' })).toBeVisible()
  sb.faults.inject('svcips.cache.delete', { status: 500, times: 1 })
  // The write goes as every write does: a job, prepared, then started with its confirmation's token.
  const { job, token } = await harness.services.jobs.prepare({
    accountId: 'demo',
    operation: 'svcips.cache.delete',
    items: [{ params: { vipid: sb.state.svcips[0]!.vipid } }],
  })
  await harness.services.jobs.start(job.id, token)
  const sender = { url: harness.url, key: 'test', sendProgress: () => undefined, sendJob: () => true }
  for (let i = 0; i < 60; i++)
    await harness.services.router.client(sender)('logs.list', { accountId: 'demo', limit: 1 })

  await app.getByRole('navigation').getByRole('link', { name: 'Logs' }).click()
  const table = app.getByRole('table', { name: 'Requests' })
  await expect(table.getByRole('row')).toHaveCount(51)
  const listCalls = () => sb.received.filter((r) => r.endpoint === 'logs.list' && r.query.limit === '50')
  expect(listCalls().at(-1)?.query).toMatchObject({ page: '1', order: 'DESC' })

  await app.getByRole('button', { name: 'Next page' }).click()
  await expect(app.getByText(/^Page 2:/)).toBeVisible()
  expect(listCalls().at(-1)?.query).toMatchObject({ page: '2' })
  await app.getByLabel('Order').selectOption({ label: 'Oldest first' })
  await expect(app.getByText(/^Page 1:/)).toBeVisible()
  expect(listCalls().at(-1)?.query).toMatchObject({ page: '1', order: 'ASC' })

  // Filters on what is loaded: the failing DELETE.
  await app.getByLabel('Method').selectOption('DELETE')
  await app.getByLabel('Path contains').fill('/cache')
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table.getByRole('row').nth(1)).toContainText('500')
  await snap(app, 'logs')
  await expectNoAxeViolations(app, 'logs')

  await table.getByRole('row').nth(1).getByRole('link').click()
  const detail = app.getByRole('region', { name: /Log entry req-/ })
  await expect(detail).toContainText('DELETE')
  // A failed request opens on what the service answered.
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(['Response body', 'Request body'])
  await expect(detail.locator('pre').first()).toContainText('"code": 500')
  await expect(detail.locator('dl')).toContainText('HTTP status500 Internal Server Error')
  await expectNoAxeViolations(app, 'log entry')
})

test('errors only, the HTTP status of each request, and a search of the pages after the loaded one with progress and stop', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  const send = sender(harness)
  // The oldest history: a request for a domain the account does not hold (400, as the service
  // answers it: "domainname is invalid."), and a list the service
  // could not serve (503, tried three times by the client).
  await harness.services.router.client(send)('domains.get', { accountId: 'demo', domain: 'not-in-this-account.com' })
  sb.faults.inject('svcips.list', { status: 503, times: 3 })
  await harness.services.router.client(send)('svcips.list', { accountId: 'demo', limit: 10 })
  const failures = sb.state.logs.filter((l) => l.response.includes('"errors"'))
  expect(failures.map((l) => l.path.split('?')[0])).toEqual([
    '/v1/domains/not-in-this-account.com',
    '/v1/svcips',
    '/v1/svcips',
    '/v1/svcips',
  ])
  // Then 120 requests that went well: the failures are now on the third page, newest first.
  for (let i = 0; i < 120; i++) await harness.services.router.client(send)('logs.list', { accountId: 'demo', limit: 1 })
  // And one whose logged response shows no status (an answer lost on the way).
  const lost = {
    ...sb.state.logs.at(-1)!,
    request_id: 'req-lost-answer',
    path: '/v1/domains/lost.example',
    response: '',
  }
  sb.state.logs.push(lost)

  await app.getByRole('navigation').getByRole('link', { name: 'Logs' }).click()
  const table = app.getByRole('table', { name: 'Requests' })
  await expect(table.getByRole('row')).toHaveCount(51)
  await expect(
    table.getByRole('row', { name: /req-lost-answer/ }).getByRole('cell', { name: 'unknown', exact: true }),
  ).toHaveAttribute(
    'title',
    'unknown: The logged response does not show the status (it is cut short, empty or not JSON).',
  )
  const success = table
    .getByRole('row', { name: /\/v1\/logs/ })
    .first()
    .getByRole('cell', { name: '200', exact: true })
  await expect(success).toHaveAttribute(
    'title',
    '200 Success: The logged response holds results: the service answered with success (200).',
  )

  // Errors only: none on the first page; the pages after it are searched on request.
  await app.getByLabel('Errors only').check()
  await expect(table).toHaveCount(0)
  await expect(app.getByText('Page 1: 0 of 50 loaded entries shown')).toBeVisible()
  // Page 2 held at the service until stopped: with 1.5 s of latency, the checks and the screenshot below took longer
  // on a loaded machine, page 2 came first and there was no Stop left to press.
  sb.faults.inject('logs.list', { hold: true, times: 1 })
  await app.getByRole('button', { name: 'Search further pages' }).click()
  const searching = app.getByRole('status').filter({ hasText: 'Searching page 2…' })
  await expect(searching).toBeVisible()
  await expect(searching.getByRole('progressbar')).toBeVisible()
  await expect(searching.getByRole('button', { name: 'Stop' })).toBeFocused()
  await snap(app, 'logs-searching')
  await expect.poll(() => sb.faults.held('logs.list')).toBe(1)
  await searching.getByRole('button', { name: 'Stop' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'Stopped after page 1.' })).toBeVisible()
  // The stopped request goes on at the service, as it did once its latency was over.
  sb.faults.release()
  await expect(app.getByText('Page 1: 0 of 50 loaded entries shown')).toBeVisible()
  await expect(app.getByRole('button', { name: 'Search on from page 2' })).toBeFocused()
  await app.keyboard.press('Enter')
  await expect(app.getByRole('status').filter({ hasText: 'Searched to the end of the log (page 3).' })).toBeVisible()
  await expect(table.getByRole('row')).toHaveCount(failures.length + 1)
  await expect(
    table.getByRole('row', { name: /not-in-this-account/ }).getByRole('cell', { name: '400', exact: true }),
  ).toHaveAttribute('title', '400 Bad Request: Read from the error code in the logged response.')
  await expect(table.getByRole('row', { name: /\/v1\/svcips/ })).toHaveCount(3)
  await expect(
    table
      .getByRole('row', { name: /\/v1\/svcips/ })
      .first()
      .getByRole('cell', { name: '503', exact: true }),
  ).toHaveAttribute('title', /^503 Service Unavailable: /)
  await expect(app.getByText(/^Pages 1–3: 4 of \d+ entries match$/)).toBeVisible()
  const pages = sb.received.filter((r) => r.endpoint === 'logs.list' && r.query.limit === '50').map((r) => r.query.page)
  expect(pages.slice(-3)).toEqual(['2', '2', '3'])
  await snap(app, 'logs-errors-found')
  await app.setViewportSize({ width: 1024, height: 640 })
  await snap(app, 'logs-errors-found-1024')

  // Another filter is applied to everything searched at once.
  await app.getByLabel('Path contains').fill('svcips')
  await expect(table.getByRole('row')).toHaveCount(4)
  await app.getByLabel('Path contains').fill('')

  // An error entry opens with the response first; a success with the request first.
  await table
    .getByRole('row', { name: /not-in-this-account/ })
    .getByRole('link')
    .click()
  const detail = app.getByRole('region', { name: /Log entry req-/ })
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(['Response body', 'Request body'])
  await expect(detail.locator('pre').first()).toContainText('"message": "domainname is invalid."')
  await expect(detail.locator('dl')).toContainText('400 Bad Request')
  await app
    .getByLabel('Find by request ID')
    .fill(sb.state.logs.find((l) => l.response.includes('"results"'))!.request_id)
  await app.getByRole('button', { name: 'Find' }).click()
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(['Request body', 'Response body'])
  await expect(detail.locator('dl')).toContainText('200 Success')
})

test('a search for a day stops where the log passes that day', async ({ app, harness }) => {
  const sb = await harness.demo()
  const send = sender(harness)
  for (let i = 0; i < 110; i++) await harness.services.router.client(send)('logs.list', { accountId: 'demo', limit: 1 })
  await app.getByRole('navigation').getByRole('link', { name: 'Logs' }).click()
  const table = app.getByRole('table', { name: 'Requests' })
  await expect(table.getByRole('row')).toHaveCount(51)
  // Every entry is from today (UTC, as the service writes it). Newest first, the second page
  // already ends before tomorrow: no later page can hold tomorrow's entries.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  await app.getByLabel('Date').fill(tomorrow)
  await app.getByRole('button', { name: 'Search further pages' }).click()
  await expect(
    app
      .getByRole('status')
      .filter({ hasText: `Every entry of ${tomorrow} is searched: the pages after these are older.` }),
  ).toBeVisible()
  expect(sb.received.filter((r) => r.endpoint === 'logs.list' && r.query.limit === '50').at(-1)?.query.page).toBe('2')
  // The log screen's own search buttons (the sidebar's "Search everything" is another thing).
  await expect(app.getByRole('main').getByRole('button', { name: /Search/ })).toHaveCount(0)
})

test('the log in Japanese, and on a smaller window', async ({ app, harness }) => {
  const sb = await harness.demo()
  sb.faults.inject('svcips.list', { status: 500, times: 1 })
  await harness.services.router.client(sender(harness))('svcips.list', { accountId: 'demo', limit: 10 })
  for (let i = 0; i < 60; i++)
    await harness.services.router.client(sender(harness))('logs.list', { accountId: 'demo', limit: 1 })
  await reloadInLanguage(app, 'ja')
  await app.setViewportSize({ width: 1024, height: 640 })
  await app.getByRole('navigation').getByRole('link', { name: 'ログ' }).click()
  const table = app.getByRole('table', { name: 'リクエスト' })
  await expect(table.getByRole('row').nth(1).getByRole('cell', { name: '200', exact: true })).toHaveAttribute(
    'title',
    /^200 成功: /,
  )
  await app.getByLabel('エラーのみ').check()
  await app.getByRole('button', { name: '次のページ以降も検索' }).click()
  await expect(app.getByRole('status').filter({ hasText: 'ログの最後まで検索しました(2 ページ)。' })).toBeVisible()
  await expect(table.getByRole('row').nth(1).getByRole('cell', { name: '500', exact: true })).toHaveAttribute(
    'title',
    /^500 サーバー内部エラー: /,
  )
  await snap(app, 'logs-ja')
  await table.getByRole('row').nth(1).getByRole('link').click()
  await expect(app.getByRole('heading', { level: 3 }).first()).toHaveText('レスポンス本文')
  await snap(app, 'logs-entry-ja')
  await app.setViewportSize({ width: 1280, height: 800 })
  await snap(app, 'logs-entry-ja-1280')
})
