/**
 * The team write ledger through the same suite as the local one (tests/helpers/ledger-contract.ts):
 * what the runner may rely on of any ledger holds on a real PostgreSQL too. Each ledger of the
 * suite gets a database of its own on one throwaway cluster; a reopen is a restarted workstation.
 */
import { afterAll, beforeAll } from 'vitest'
import { TeamLedger } from '../../src/main/team/team-ledger'
import type { WriteLedger } from '../../src/main/jobs/ledger/write-ledger'
import { ledgerContract } from '../helpers/ledger-contract'
import { startTestPostgres, type TestPostgres } from '../../support/postgres'
import { poolFor } from '../../support/team-ledgers'

let db: TestPostgres
let made = 0
const databaseOf = new Map<WriteLedger, string>()
const open: WriteLedger[] = []

beforeAll(async () => {
  db = await startTestPostgres()
}, 60_000)
afterAll(async () => {
  for (const l of open) await l.close().catch(() => undefined)
  db?.remove()
})

async function openOn(database: string): Promise<WriteLedger> {
  // Set up by the team's owner (the cluster's superuser) on first use, as its `team init` does.
  const ledger = await TeamLedger.open({
    pool: poolFor({ ...db, database }),
    member: 'alice',
    workstation: 'host-a',
    where: database,
    ownsPool: true,
    createSchema: true,
  })
  databaseOf.set(ledger, database)
  open.push(ledger)
  return ledger
}

ledgerContract('the team ledger', {
  oneProcessJournal: false,
  async fresh() {
    const database = `contract_${++made}`
    const admin = poolFor(db)
    try {
      await admin.query(`CREATE DATABASE ${database}`)
    } finally {
      await admin.end()
    }
    return openOn(database)
  },
  async reopen(ledger) {
    const database = databaseOf.get(ledger)
    if (!database) throw new Error('not a ledger of this suite')
    await ledger.close()
    return openOn(database)
  },
})
