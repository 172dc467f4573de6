/**
 * A workstation's sending process for the team tests (issue 37 point 3): holds leases of the team
 * ledger on a real PostgreSQL and "sends" by appending a line to a file, exactly as the runner
 * must: only after stillHeld() said yes. Started by tests/integration/team-processes.test.ts,
 * driven by one order per stdin line, one JSON answer per stdout line:
 * `claim <target>`, `send <target>` (stillHeld, then the line, answering before the release so
 * that the test can kill it mid-send), `release <target> <free|unknown>`, `job <id>` (a job of
 * one item journaled as started, as a runner journals it before its first send).
 *
 * argv: host port member workstation sentFile leaseMs
 */
import { appendFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { TeamLedger } from '../../src/main/team/team-ledger'
import type { TargetLease } from '../../src/main/jobs/ledger/write-ledger'

const [host, port, member, workstation, sentFile, leaseMs] = process.argv.slice(2)
if (!host || !port || !member || !workstation || !sentFile || !leaseMs)
  throw new Error('usage: team-child host port member workstation sentFile leaseMs')

const say = (m: object) => process.stdout.write(`${JSON.stringify(m)}\n`)
const codeOf = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : String(err)

async function main(): Promise<void> {
  const pool = new pg.Pool({
    host,
    port: Number(port),
    user: 'postgres',
    database: 'postgres',
    connectionTimeoutMillis: 2000,
  })
  pool.on('error', () => undefined)
  // The cluster's superuser is the team's owner: the schema set up as its `team init` does, if not yet.
  const ledger = await TeamLedger.open({
    pool,
    member: member!,
    workstation: workstation!,
    where: 'postgres',
    leaseMs: Number(leaseMs),
    createSchema: true,
  })
  const leases = new Map<string, TargetLease>()
  say({ t: 'ready', pid: process.pid })
  const lines = createInterface({ input: process.stdin })
  for await (const line of lines) {
    const [verb, target, how] = line.trim().split(' ')
    try {
      if (verb === 'claim') {
        const r = await ledger.claim(
          { accountId: 'acct', operation: 'domains.expiration.renew', target: target! },
          { jobId: `job-${process.pid}`, index: 0 },
        )
        if (r.ok) leases.set(target!, r.lease)
        say(r.ok ? { t: 'claim', ok: true, fence: r.lease.fence } : { t: 'claim', ok: false, heldBy: r.heldBy })
      } else if (verb === 'send') {
        const lease = leases.get(target!)
        const held = lease ? await ledger.stillHeld(lease) : false
        // The send itself: only with a lease whose fencing number is still current.
        if (held) appendFileSync(sentFile!, `${process.pid} ${target}\n`)
        say({ t: 'send', sent: held })
      } else if (verb === 'job') {
        const at = new Date().toISOString()
        const item = {
          target: 'job.example',
          label: 'job.example',
          params: { domain: 'job.example', years: 1 },
          state: 'pending' as const,
        }
        await ledger.append({
          t: 'job',
          job: {
            id: target!,
            accountId: 'acct',
            accountName: 'Account',
            operation: 'domains.expiration.renew',
            confirm: false,
            status: 'running',
            createdAt: at,
            startedAt: at,
            concurrency: 1,
            items: [item],
          },
        })
        say({ t: 'job', ok: true })
      } else if (verb === 'release') {
        const lease = leases.get(target!)
        if (lease) await ledger.release(lease, how === 'unknown' ? 'unknown' : 'free')
        say({ t: 'release', ok: lease !== undefined })
      }
    } catch (err) {
      say({ t: verb ?? 'error', error: codeOf(err) })
    }
  }
  await ledger.close()
  await pool.end()
}
void main()
