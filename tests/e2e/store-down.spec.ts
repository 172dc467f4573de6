/**
 * A portfolio store whose worker stopped is said in the window, in the user's language, while it
 * is down; a zone save then is refused with why (nothing sent), and Retry brings the store back.
 * The worker is run out of memory for real (a small heap, a list larger than it).
 */
import AxeBuilder from '@axe-core/playwright'
import { accountLists } from '../../support/portfolio-data'
import { expect, reloadInLanguage, snap, test } from './fixtures'
import type { Harness } from '../../support/harness'

test.use({
  harnessOptions: {
    storeWorker: { resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 }, maxRestarts: 0 },
  },
})

async function runStoreOutOfMemory(harness: Harness): Promise<void> {
  const template = accountLists({ domains: 1, seed: 5 }).domains[0]!
  const tooLarge = Array.from({ length: 400_000 }, (_, i) => ({
    ...template,
    domainid: i,
    domainname: `d${i}-${'x'.repeat(200)}.example`,
  }))
  await expect(
    harness.services.store.putList('demo', 'domains.list', {}, tooLarge, new Date().toISOString()),
  ).rejects.toMatchObject({ data: { code: 'store.workerStopped' } })
}

for (const [lang, said, retry] of [
  ['en', 'The portfolio stopped working', 'Retry'],
  ['ja', 'ポートフォリオが動作を停止し', '再試行'],
] as const) {
  test(`a stopped store is said while it is down, and Retry brings it back (${lang})`, async ({ app, harness }) => {
    await app.setViewportSize({ width: 1024, height: 700 })
    if (lang === 'ja') {
      await reloadInLanguage(app, 'ja')
    }
    await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(app.getByTestId('store-down')).toHaveCount(0)
    await runStoreOutOfMemory(harness)
    const banner = app.getByTestId('store-down')
    await expect(banner).toContainText(said)
    await expect(banner).toContainText('ERR_WORKER_OUT_OF_MEMORY')
    await expect(banner).toHaveAttribute('role', 'alert')
    const found = (
      await new AxeBuilder({ page: app })
        .include('[data-testid=store-down]')
        .options({ resultTypes: ['violations'] })
        .analyze()
    ).violations.map((v) => v.id)
    expect(found).toEqual([])
    await snap(app, `store-down-${lang}`)
    await banner.getByRole('button', { name: retry }).click()
    await expect(banner).toHaveCount(0)
    expect(typeof (await harness.services.store.exportCsv())).toBe('string')
  })
}
