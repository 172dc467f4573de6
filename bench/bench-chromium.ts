/** Debian's Chromium as the page benches launch it: no sandbox (root), no GPU, nothing of its own on the network. */
import { chromium, type Browser } from '@playwright/test'
import { CHROMIUM_PATH } from '../playwright.config'

export function launchBenchChromium(
  options: {
    /** A launcher of its own in Chromium's place (one that keeps the renderer's output, say). */
    executablePath?: string
    /** Switches besides the bench's own (V8's flags, say). */
    extraArgs?: readonly string[]
  } = {},
): Promise<Browser> {
  return chromium.launch({
    executablePath: options.executablePath ?? CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...(options.extraArgs ?? []),
    ],
  })
}
