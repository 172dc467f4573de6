/**
 * npm run ui: the app's real renderer in a visible Chromium window, with window.api bridged
 * to the real main-process services (demo sandbox, keychain, an account file under
 * ~/.config/hosting-admin-ui), for trying the UI by hand where no Electron binary exists.
 * Close the window to stop.
 */
import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { installBridge, startHarness } from '../tests/e2e/harness'
import { CHROMIUM_PATH } from '../playwright.config'

const userDataDir = process.env.HOSTING_ADMIN_UI_DIR ?? join(homedir(), '.config', 'hosting-admin-ui')
mkdirSync(userDataDir, { recursive: true })
const harness = await startHarness({ userDataDir })
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  headless: false,
  args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
await installBridge(page, harness)
await page.goto(harness.url)
console.log(`The app is open in Chromium (accounts in ${userDataDir}). Close the window to stop.`)
await new Promise<void>((resolve) => {
  page.on('close', () => resolve())
  browser.on('disconnected', () => resolve())
})
await browser.close().catch(() => undefined)
await harness.close()
process.exit(0)
