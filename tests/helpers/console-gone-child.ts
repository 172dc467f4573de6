/**
 * Run as its own process whose standard output and error are pipes the parent has closed: the
 * app's log with its console on (development) and main's handler of uncaught exceptions, as
 * src/main/index.ts installs them. It logs, lets the console's write errors arrive, and says
 * over IPC how many turns it took. Used by tests/integration/console-gone.test.ts.
 */
import { createAppLog } from '../../src/main/base/app-log'

const dir = process.argv[2]
if (dir === undefined || !process.send) throw new Error('usage: fork console-gone-child <dir>')
const send = process.send.bind(process)
const log = createAppLog({ dir, console: true })
process.on('uncaughtException', (err) => log.error('main.uncaught', { error: err.name, message: err.message }))
const turn = () => new Promise((resolve) => setTimeout(resolve, 0))
process.once('message', async () => {
  for (let i = 0; i < 5; i++) {
    log.info('test.line', { n: i })
    log.error('test.failure', { n: i })
    await turn()
  }
  // The write errors are emitted on a later turn than the write: a few more let them all arrive.
  for (let i = 0; i < 20; i++) await turn()
  send('done', () => process.exit(0))
})
send('ready')
