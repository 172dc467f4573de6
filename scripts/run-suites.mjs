// Runs the vitest suites (unit, integration) and the Playwright end-to-end suite, with the lint
// beside them, then prints one closing line: "N passed, N failed, N skipped". A failed lint
// fails the run (its findings are printed before that line).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, openSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const out = mkdtempSync(join(tmpdir(), 'suites-'))
const totals = { passed: 0, failed: 0, skipped: 0 }
let broken = false
// npm's cache and config live under the real home even when HOME points at a throwaway keyring.
const env = { ...process.env, npm_config_cache: process.env.REAL_HOME ? join(process.env.REAL_HOME, '.npm') : process.env.npm_config_cache }

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } })
  return r.status ?? 1
}

// The lint, in its own process writing to a file, said once the suites are done.
const lintLog = join(out, 'lint.log')
const lintFd = openSync(lintLog, 'w')
const lintChild = spawn('npm', ['run', '--silent', 'lint'], { stdio: ['ignore', lintFd, lintFd], env })
const lintDone = new Promise((resolve) => {
  lintChild.on('error', () => resolve(1))
  lintChild.on('close', (code) => resolve(code ?? 1))
})

// Unit and integration tests.
const vitestJson = join(out, 'vitest.json')
const vitestStatus = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`])
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
  const pwStatus = run('npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson })
  if (existsSync(pwJson)) {
    const s = JSON.parse(readFileSync(pwJson, 'utf8')).stats
    totals.passed += s.expected + (s.flaky ?? 0)
    totals.failed += s.unexpected
    totals.skipped += s.skipped
    if (pwStatus !== 0 && s.unexpected === 0) broken = true
  } else broken = true
}

const lintStatus = await lintDone
console.log('== lint')
process.stdout.write(readFileSync(lintLog, 'utf8'))
if (lintStatus !== 0) console.error('The lint failed (see above).')

if (broken) console.error('A test runner failed without reporting a failed test (see its output above).')
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(totals.failed > 0 || broken || lintStatus !== 0 ? 1 : 0)
