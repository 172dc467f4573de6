/**
 * The app's own screens around the service: the start-up failure screen, the log and the
 * diagnostics, and errors of the page reaching the log.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, reloadInLanguage, snap, test } from './fixtures'

test.describe('when the accounts file cannot be read', () => {
  // A folder where the accounts file should be, in each test's own data folder.
  test.use({ userDataFiles: { 'accounts.json': null } })

  test('the window says what went wrong, which file, and what to do; Quit quits', async ({ app, harness }) => {
    await expect(app.getByRole('heading', { level: 1, name: 'Hosting Admin could not start' })).toBeVisible()
    const alert = app.getByRole('alert')
    await expect(alert).toContainText(
      `The accounts file ${join(harness.userDataDir, 'accounts.json')} could not be read (EISDIR).`,
    )
    await expect(alert).toContainText('move it away to start without accounts')
    await expect(app.getByText('Nothing was sent to the service.')).toBeVisible()
    await snap(app, 'startup-failure')
    await app.getByRole('button', { name: 'Quit' }).click()
    await expect.poll(() => harness.quitsConfirmed).toBe(1)
  })

  test('in Japanese too', async ({ app }) => {
    await reloadInLanguage(app, 'ja')
    await expect(app.getByRole('heading', { level: 1, name: 'Hosting Admin を起動できませんでした' })).toBeVisible()
    await expect(app.getByRole('alert')).toContainText('アカウントファイル')
    await expect(app.getByRole('button', { name: '終了' })).toBeVisible()
  })
})

test('Copy diagnostics: versions and the log, shown and put on the clipboard, without a key', async ({
  app,
  harness,
}) => {
  const sb = await harness.demo()
  await app.getByRole('link', { name: 'Accounts & settings' }).click()
  await app.getByRole('button', { name: 'Copy diagnostics' }).click()
  await expect(
    app.getByRole('status').filter({ hasText: /Diagnostics copied to the clipboard \(\d+ log lines\)/ }),
  ).toBeVisible()
  expect(harness.desktop.copied).toHaveLength(1)
  const text = harness.desktop.copied[0] ?? ''
  expect(text).toMatch(/^Hosting Admin \d+\.\d+\.\d+\n/)
  expect(text).toContain(`node: ${process.versions.node}`)
  expect(text).toContain('app.ready')
  expect(text).not.toContain(sb.keys.full)
  await app.getByText('What was copied').click()
  await expect(app.locator('pre.diagnostics')).toContainText('accounts: 0')
  // Here there is no desktop to open a folder in, and the screen says so.
  await app.getByRole('button', { name: 'Open log folder' }).click()
  await expect(app.getByRole('alert')).toContainText('There is no desktop here to open the folder in.')
})

test('an error thrown in the page is written to the app’s log', async ({ app, harness }) => {
  await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
  await app.evaluate(() =>
    setTimeout(() => {
      throw new Error('boom from the page')
    }, 0),
  )
  await expect
    .poll(() => readFileSync(harness.logFile, 'utf8'))
    .toMatch(/renderer\.error source=error message="Error: boom from the page"/)
})

test.describe('when the saved portfolio is not a database', () => {
  test.use({ userDataFiles: { 'portfolio.db': 'this is not a database, just text that took its place' } })

  test('it is kept aside, the app starts with an empty store, and says so once', async ({ app, harness }) => {
    const { userDataDir } = harness
    const note = app.getByRole('status').filter({ hasText: 'The saved portfolio' })
    await expect(note).toContainText('it was kept aside and the app started with an empty one')
    const aside = readdirSync(userDataDir).filter((f) => f.startsWith('portfolio.db.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(userDataDir, aside[0]!), 'utf8')).toContain('this is not a database')
    expect(existsSync(join(userDataDir, 'portfolio.db'))).toBe(true)
    await note.getByRole('button', { name: 'Close' }).click()
    await expect(note).toHaveCount(0)
  })
})
