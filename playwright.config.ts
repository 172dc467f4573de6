import { defineConfig } from '@playwright/test'

/** Debian's Chromium: Playwright's own browser download is not possible on these machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  // The specs, between a setup that clears the logs of an earlier run and a check of every
  // log they wrote for API keys.
  projects: [
    { name: 'clear logs', testMatch: /logs\.setup\.ts$/ },
    { name: 'e2e', testMatch: '**/*.spec.ts', dependencies: ['clear logs'], teardown: 'no keys in logs' },
    { name: 'no keys in logs', testMatch: /no-keys-in-logs\.teardown\.ts$/ },
  ],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      // No background traffic: this machine has no network but the loopback.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
})
