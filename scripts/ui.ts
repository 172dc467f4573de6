/**
 * npm run ui: the app's real renderer in a Chromium app window (no tabs, no address bar), with
 * window.api bridged to the real main-process services (demo sandbox, keychain, an account
 * file and the log under ~/.config/hosting-admin-ui), for trying the UI by hand where no
 * Electron binary exists. Close the window to stop. Without a display: `xvfb-run -a npm run ui`.
 */
import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { installBridge, startHarness } from '../tests/e2e/harness'
import { CHROMIUM_PATH } from '../playwright.config'

const userDataDir = process.env.HOSTING_ADMIN_UI_DIR ?? join(homedir(), '.config', 'hosting-admin-ui')
mkdirSync(userDataDir, { recursive: true })
const harness = await startHarness({ userDataDir, logDir: join(userDataDir, 'logs') })
// A persistent context, because only it hands over the window Chromium opens for --app.
const context = await chromium.launchPersistentContext(join(userDataDir, 'chromium'), {
  executablePath: CHROMIUM_PATH,
  headless: false,
  viewport: null,
  args: ['--app=about:blank', '--window-size=1280,800', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})
const page = context.pages()[0] ?? (await context.waitForEvent('page'))
await installBridge(page, harness)
await page.goto(harness.url)
console.log(`The app is open in a Chromium app window (accounts and log in ${userDataDir}). Close the window to stop.`)
await new Promise<void>((resolve) => {
  page.on('close', () => resolve())
  context.on('close', () => resolve())
})
await context.close().catch(() => undefined)
await harness.close()
process.exit(0)
