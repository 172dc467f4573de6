import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { defineConfig } from '@playwright/test'

/** Debian's Chromium: Playwright's own browser download is not possible on these machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/**
 * The suite's browser: Debian's Chromium headless shell (the same engine without the browser's
 * own windows, as Playwright itself uses for headless runs), which needs about a third less of
 * the machine than the full browser run headless; the full browser where it is not installed.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'
const E2E_BROWSER_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH)

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
  // The list, then where each failed test's time went (read in CI's log, which is all there is there).
  reporter: [['list'], ['./support/slow-steps-reporter.ts']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Every test has its own harness, data folder, sandboxes, keychain entries and log folder
  // (tests/e2e/fixtures.ts), so any two can run side by side (E2E_WORKERS to choose): one per
  // core, at least two. On a 2-core machine, two workers in the headless shell run the suite
  // in about 3 minutes, against 5.7 for one in the full browser.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS) || Math.max(2, availableParallelism()),
  retries: 0,
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: E2E_BROWSER_PATH,
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
    // A trace of each test, kept when it fails, for a run on this machine. Not in CI, where only
    // the log is read: recording them took a quarter of the suite's time there (the whole e2e
    // suite 201 s with traces, 148 s without, two workers on a 2-core machine).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
})
