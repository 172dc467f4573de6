// Runs the vitest suites (unit, integration) and the Playwright end-to-end suite,
// then prints one closing line: "N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const out = mkdtempSync(join(tmpdir(), 'suites-'))
const totals = { passed: 0, failed: 0, skipped: 0 }
let broken = false
// npm's cache and config live under the real home even when HOME points at a throwaway keyring.
const env = {
  ...process.env,
  npm_config_cache: process.env.REAL_HOME ? join(process.env.REAL_HOME, '.npm') : process.env.npm_config_cache,
}

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } })
  return r.status ?? 1
}

// Unit and integration tests.
const vitestJson = join(out, 'vitest.json')
const vitestStatus = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
])
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'))
  totals.passed += r.numPassedTests
  totals.failed += r.numFailedTests
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0)
  if (vitestStatus !== 0 && r.numFailedTests === 0) broken = true
} else broken = true

// End-to-end tests in Chromium, when there are any.
const hasE2e = existsSync('tests/e2e') && readdirSync('tests/e2e').some((f) => f.endsWith('.spec.ts'))
if (hasE2e) {
  const pwJson = join(out, 'playwright.json')
  const pwStatus = run('npx', ['playwright', 'test', '--reporter=list,json,./support/slow-steps-reporter.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
  })
  if (existsSync(pwJson)) {
    const s = JSON.parse(readFileSync(pwJson, 'utf8')).stats
    totals.passed += s.expected + (s.flaky ?? 0)
    totals.failed += s.unexpected
    totals.skipped += s.skipped
    if (pwStatus !== 0 && s.unexpected === 0) broken = true
  } else broken = true
}

if (broken) console.error('A test runner failed without reporting a failed test (see its output above).')
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(totals.failed > 0 || broken ? 1 : 0)
