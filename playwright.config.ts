import { availableParallelism } from 'node:os'
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
  // Every test has its own harness, data folder, sandboxes, keychain entries and log folder
  // (tests/e2e/fixtures.ts), so any two can run side by side (E2E_WORKERS to choose). On the
  // 2-core CI machine two workers took as long as one (12 min) and two tests failed that pass
  // alone, so CI keeps one until those are found out.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS) || (process.env.CI ? 1 : Math.max(2, availableParallelism())),
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
