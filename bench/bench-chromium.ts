/**
 * Debian's Chromium as the page benches launch it: no sandbox (root), no GPU, nothing of its own on the network, and
 * no omnibox popup: Chromium 156 starts a renderer of its own for it at launch (a WebUI page, about 170 ms of CPU as
 * the window loads), a process an Electron window never has, taking one of the two cores from the window measured;
 * and the window's V8 flags (src/main/shell/window-v8.ts), as Electron's renderers have them.
 */
import { chromium, type Browser } from '@playwright/test'
import { CHROMIUM_PATH } from '../playwright.config'
import { WINDOW_JS_FLAGS } from '../src/main/shell/window-v8'

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
      '--disable-features=WebUIOmniboxPopup',
      // The window's own V8 flags, as main passes them to Electron's renderers.
      `--js-flags=${WINDOW_JS_FLAGS}`,
      ...(options.extraArgs ?? []),
    ],
  })
}
