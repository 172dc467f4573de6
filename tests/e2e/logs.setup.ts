/** Before the end-to-end run: no log of an earlier run is left to check (see no-keys-in-logs.teardown.ts). */
import { rmSync } from 'node:fs'
import { test as setup } from '@playwright/test'
import { E2E_LOG_ROOT } from '../../support/harness'

setup('start with no logs of an earlier run', () => {
  rmSync(E2E_LOG_ROOT, { recursive: true, force: true })
})
