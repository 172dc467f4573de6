/**
 * Launches the real Electron app, where an Electron binary exists. These machines
 * cannot download one (docs/packaging.md, What CI checks), so here the test skips and says so; the
 * renderer is covered end to end in Chromium by the other specs.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'

function electronBinary(): string | undefined {
  const dir = resolve('node_modules/electron')
  const pathFile = join(dir, 'path.txt')
  if (!existsSync(pathFile)) return undefined
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(bin) ? bin : undefined
}

const binary = electronBinary()

test.skip(
  !binary,
  'No Electron binary is installed (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1; none can be downloaded here).',
)

test('the real app opens on the demo account with its hardened window', async () => {
  const app = await electron.launch({ executablePath: binary, args: [resolve('out/main/index.js')] })
  try {
    const win = await app.firstWindow()
    expect(win.url()).toBe('app://app/index.html')
    // No Node.js in the page, and only the contract's window.api: one invoke and main's events.
    const page = await win.evaluate(() => {
      // Typed as the e2e program sees a page (Node's globals, the bridge's window.api): the
      // checks below are what the hardened page really holds.
      return {
        require: typeof globalThis.require,
        process: typeof globalThis.process,
        api: typeof window.api,
        areas: Object.keys(window.api ?? {}).sort(),
      }
    })
    expect(page).toMatchObject({ require: 'undefined', process: 'undefined', api: 'object' })
    expect(page.areas).toEqual(['invoke', 'onJob', 'onProgress', 'onQuitRequest', 'onReloadRequest', 'onReminderOpen'])
  } finally {
    await app.close()
  }
})
