/** Debian's Chromium as the page benches launch it: no sandbox (root), no GPU, nothing of its own on the network. */
import { chromium, type Browser } from '@playwright/test'
import { CHROMIUM_PATH } from '../playwright.config'

export function launchBenchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
}
