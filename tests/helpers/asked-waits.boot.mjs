// Loaded into a process of the command before it starts (NODE_OPTIONS=--import): writes every
// wait the process asks of node:timers/promises (the pacer's clock, the polls), in milliseconds,
// one a line, to the file HOSTING_ADMIN_TEST_WAITS names. A test reads what the command decided
// to wait, which no machine's speed changes, instead of timing it.
import { appendFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import timers from 'node:timers/promises'

const file = process.env.HOSTING_ADMIN_TEST_WAITS
if (file) {
  const sleep = timers.setTimeout
  timers.setTimeout = (ms, ...rest) => {
    appendFileSync(file, `${Number(ms ?? 0)}\n`)
    return sleep(ms, ...rest)
  }
  syncBuiltinESMExports()
}
