/**
 * Run as its own process under a file-size limit (`ulimit -f`), so the disk refuses the writes as
 * a full one does, part-way: each of the app's whole-file writers is asked to write, and the
 * failure codes are printed as one JSON line. Used by tests/integration/full-disk-files.test.ts.
 */
import { join } from 'node:path'
import { writeFileAtomic } from '../../src/main/accounts/atomic-file'
import { writeTeamSettings } from '../../src/main/team/team-settings'

const dir = process.argv[2]
if (dir === undefined) throw new Error('usage: full-disk-child <dir>')
const codeOf = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'none'
const settings = {
  connection: { host: '127.0.0.1', port: 5432, database: 'team', user: 'admin', sslmode: 'disable' as const },
  member: 'm'.repeat(20_000),
  workstation: 'w',
}
const results = {
  accounts: await writeFileAtomic(join(dir, 'accounts.json'), 'x'.repeat(100_000)).then(() => 'written', codeOf),
  team: await writeTeamSettings(dir, settings).then(() => 'written', codeOf),
}
console.log(JSON.stringify(results))
