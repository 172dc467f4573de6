// The store's real worker, which ends its own thread while writing a history row when the test asks
// (the file HOSTING_ADMIN_TEST_STORE_DEATH names holds how), as a worker that crashes may:
//   before  the next recordWrite, before the store sees it (no row), once
//   after   the next recordWrite, once the store has written it and before its answer leaves, once
//   always  every recordWrite, before the store sees it, until the file is removed
// While the file HOSTING_ADMIN_TEST_STORE_NO_START names exists, a worker ends before it opens the
// store (every restart fails). Each death is appended to HOSTING_ADMIN_TEST_STORE_DEATHS.
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

const control = process.env.HOSTING_ADMIN_TEST_STORE_DEATH ?? ''
const noStart = process.env.HOSTING_ADMIN_TEST_STORE_NO_START ?? ''
const deaths = process.env.HOSTING_ADMIN_TEST_STORE_DEATHS ?? ''

const die = (how) => {
  appendFileSync(deaths, `${how}\n`)
  process.exit(1)
}
if (noStart && existsSync(noStart)) die('no-start')

const how = () => (existsSync(control) ? readFileSync(control, 'utf8').trim() : '')
const isRecordWrite = (m) => typeof m === 'object' && m !== null && m.target === 'history' && m.method === 'recordWrite'

/** The call whose answer is not to leave: the worker ends instead. */
let withheld
// Before the store's own listener (registered when the entry loads below): it sees the call first.
parentPort.on('message', (m) => {
  if (!isRecordWrite(m)) return
  const mode = how()
  if (mode === 'before' || mode === 'after') rmSync(control, { force: true })
  if (mode === 'before' || mode === 'always') die(mode)
  if (mode === 'after') withheld = m.id
})
const post = parentPort.postMessage.bind(parentPort)
parentPort.postMessage = (m, ...rest) => {
  if (withheld !== undefined && m?.kind === 'answer' && m.id === withheld) die('after')
  return post(m, ...rest)
}

register()
await import('../../src/main/store/worker-entry.ts')
