/**
 * npm run ui: the app's real renderer in a Chromium app window (no tabs, no address bar, no
 * automation or sandbox bars), with window.api bridged to the real main-process services (demo
 * sandbox, the system keychain, an account file and the log under ~/.config/hosting-admin-ui,
 * kept between runs), for trying the UI by hand where no Electron binary exists. Close the
 * window to stop. Without a display: `xvfb-run -a npm run ui`.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { installBridge } from '../support/harness'
import { CHROMIUM_PATH } from '../playwright.config'
import { startUiServices, uiDataDir } from './ui-options'

const userDataDir = uiDataDir()
mkdirSync(userDataDir, { recursive: true })
const harness = await startUiServices(userDataDir)
// A persistent context, because only it hands over the window Chromium opens for --app.
// Chromium's own sandbox, as in the app; only root cannot have it (Chromium refuses to start as
// root with it), and there `--test-type` keeps Chromium's "unsupported flag" bar off the window.
const asRoot = process.getuid?.() === 0
const context = await chromium.launchPersistentContext(join(userDataDir, 'chromium'), {
  executablePath: CHROMIUM_PATH,
  headless: false,
  viewport: null,
  chromiumSandbox: !asRoot,
  // One app window: not the tab Playwright opens by default, nor its "controlled by automated
  // test software" bar.
  ignoreDefaultArgs: ['about:blank', '--enable-automation'],
  args: [
    // An app window needs a page address of its own (about:blank opens a browser window); it is
    // loaded again below, once window.api is bridged.
    `--app=${harness.url}`,
    '--window-size=1280,800',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    ...(asRoot ? ['--test-type'] : []),
  ],
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
