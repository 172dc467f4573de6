/**
 * One account is one account to the team, whatever key reaches it (issue 49 point 2). Members
 * often hold keys of their own for one service account; the team must share leases, the record of
 * ended sends and history across them, or one member's renewal does not stop another's.
 *
 * The service has no "who am I" call, but every account has its own request log, and every key of
 * an account reads the same log (API-SPEC: the log of API requests, per account). So a key shows
 * which account it reaches by finding, in its own log, a request made with a key the team already
 * knows: each account the team knows keeps `team_account_proofs`, request ids made with one of
 * its keys; `GET /logs/{request_id}` with a new key answers that entry only if the new key reaches
 * the same account (another account's log has no such entry: not found).
 *
 * A key's fingerprint (fingerprint.ts: the key itself never leaves the workstation) is linked to
 * the team's id of its account in `team_account_keys`: the fingerprint of the account's first key,
 * so accounts shared before this existed keep their id and their rows. A key that matches no proof
 * is a new account, with a proof of its own. Establishing runs under a database lock, so two new
 * keys of one account arriving at once are told apart in turn, the second finding the first's
 * proof. Proofs are renewed as keys are used (PROOF_FRESH_MS), since a log may not keep old entries
 * for ever: a key that finds only proofs older than PROOF_TRUSTED_MS cannot be told apart from a
 * new account, and is not established: its writes are refused in team mode, saying what to do.
 */
import type pg from 'pg'
import { z } from 'zod'
import { AppError } from '../base/app-error'
import type { ApiClient } from '../http'
import { accountFingerprint } from './fingerprint'
import { TeamError, teamErrorOf } from './team-error'
import type { TeamAccountMap } from './team-ledger'
import { inTransaction } from './transaction'

/** A proof younger than this is not made again when a key is used. */
const PROOF_FRESH_MS = 24 * 3_600_000
/** A proof older than this may have left the service's log: not finding it proves nothing. */
const PROOF_TRUSTED_MS = 30 * 24 * 3_600_000
/** How many proofs of an account are tried (the newest first). */
const PROOFS_TRIED = 3
/** Any number, so that two apps' locks never meet another program's (nor the schema's). */
const ESTABLISH_LOCK = 0x7ea3_0049

export interface AccountKeys {
  /** An account's API key, from the keychain; used only to compute its fingerprint here. */
  keyOf(accountId: string): Promise<string | undefined>
  /** The account's client, whose key reads its log (undefined: this process cannot reach the service, tests of the schema alone). */
  clientOf?(accountId: string): Promise<ApiClient>
}

const linkRow = z.object({ account: z.string() })
const proofRow = z.object({ account: z.string(), request_id: z.string(), made_at: z.date() })

export class TeamAccountIdentities implements TeamAccountMap {
  private readonly team = new Map<string, string>()
  private readonly local = new Map<string, Set<string>>()
  /** Why an account's key could not be established yet (the refusal of its writes says it). */
  private readonly unsure = new Map<string, TeamError>()
  private teamId: string | undefined
  private pool: pg.Pool | undefined

  constructor(
    private readonly keys: AccountKeys,
    private readonly member: string,
  ) {}

  /** The team's id and database known: the accounts given are established now (each failure kept for its writes). */
  async startTeam(pool: pg.Pool, teamId: string, accountIds: readonly string[]): Promise<void> {
    this.pool = pool
    this.teamId = teamId
    for (const id of accountIds) await this.learn(id).catch(() => undefined)
  }

  /**
   * The team's id of this workstation's account, established once (from its key's link, or by its
   * log); throws TeamError('team.accountUnreachable' or 'team.accountUnproven') when the team
   * cannot yet tell which account the key reaches, so no write is sent under a wrong or a second identity.
   */
  async learn(accountId: string): Promise<void> {
    if (this.teamId === undefined || this.pool === undefined || this.team.has(accountId)) return
    const key = await this.keys.keyOf(accountId)
    if (key === undefined) return
    const fp = accountFingerprint(key, this.teamId)
    try {
      const account = await this.establish(this.pool, accountId, fp)
      this.team.set(accountId, account)
      const locals = this.local.get(account) ?? new Set<string>()
      locals.add(accountId)
      this.local.set(account, locals)
      this.unsure.delete(accountId)
    } catch (err) {
      const e = err instanceof TeamError ? err : teamErrorOf(err)
      this.unsure.set(accountId, e)
      throw e
    }
  }

  private async establish(pool: pg.Pool, accountId: string, fp: string): Promise<string> {
    const known = await pool.query('SELECT account FROM team_account_keys WHERE fingerprint = $1', [fp])
    const row: unknown = known.rows[0]
    if (row !== undefined) {
      const account = linkRow.parse(row).account
      await this.renewProof(pool, accountId, account).catch(() => undefined)
      return account
    }
    const client = await this.keys.clientOf?.(accountId)
    // No way to read the service here (the schema's own tests): the key is its own account, as before proofs.
    if (!client) return fp
    const linked = await inTransaction(pool, async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [ESTABLISH_LOCK])
      // Linked meanwhile by another process of this key: that link stands.
      const again: unknown = (await c.query('SELECT account FROM team_account_keys WHERE fingerprint = $1', [fp]))
        .rows[0]
      if (again !== undefined) return { account: linkRow.parse(again).account, proven: false }
      const proofs = z
        .array(proofRow)
        .parse(
          (
            await c.query(
              `SELECT account, request_id, made_at FROM (SELECT *, row_number() OVER (PARTITION BY account ORDER BY made_at DESC) AS n FROM team_account_proofs) p WHERE n <= $1 ORDER BY made_at DESC`,
              [PROOFS_TRIED],
            )
          ).rows,
        )
      const byAccount = new Map<string, z.infer<typeof proofRow>[]>()
      for (const p of proofs) byAccount.set(p.account, [...(byAccount.get(p.account) ?? []), p])
      let inconclusive = false
      for (const [account, tried] of byAccount) {
        for (const p of tried) {
          const found = await this.inOwnLog(client, p.request_id)
          if (found) {
            await c.query(`SELECT team_link_key($1, $2, 'log', $3)`, [fp, account, this.member])
            return { account, proven: true }
          }
          if (Date.now() - p.made_at.getTime() > PROOF_TRUSTED_MS) inconclusive = true
        }
      }
      // Every account the team knows has a proof the key's log would show: it reaches none of them.
      if (inconclusive) throw new TeamError('team.accountUnproven')
      const proof = await this.madeProof(client)
      await c.query(`SELECT team_link_key($1, $1, 'first', $2)`, [fp, this.member])
      await c.query('SELECT team_add_proof($1, $2)', [fp, proof])
      return { account: fp, proven: false }
    })
    // Linked by the key's own log: the account's proof renewed once the link is committed.
    if (linked.proven) await this.renewProof(pool, accountId, linked.account).catch(() => undefined)
    return linked.account
  }

  /**
   * Whether this key's account log holds the entry: found; not found (another account's: a 404, or
   * the 400 the live service is recorded to answer a name it does not hold with); or the service
   * could not say (thrown).
   */
  private async inOwnLog(client: ApiClient, requestId: string): Promise<boolean> {
    try {
      await client.call('logs.get', { request_id: requestId })
      return true
    } catch (err) {
      if (err instanceof AppError && (err.data.kind === 'not-found' || err.data.kind === 'bad-request')) return false
      throw new TeamError('team.accountUnreachable')
    }
  }

  /** A request made now with the key (the first domain of the account, read): its id is in the account's log. */
  private async madeProof(client: ApiClient): Promise<string> {
    let env
    try {
      env = await client.send('domains.list', { limit: 1, page: 1 })
    } catch {
      throw new TeamError('team.accountUnreachable')
    }
    if (env.requestId === undefined) throw new TeamError('team.accountUnreachable')
    return env.requestId
  }

  /** A fresh proof for the account when its newest is a day old (its old ones may leave the log). */
  private async renewProof(pool: pg.Pool, accountId: string, account: string): Promise<void> {
    const newest: unknown = (
      await pool.query('SELECT max(made_at) AS made_at FROM team_account_proofs WHERE account = $1', [account])
    ).rows[0]
    const at = z.object({ made_at: z.date().nullable() }).parse(newest).made_at
    if (at && Date.now() - at.getTime() < PROOF_FRESH_MS) return
    const client = await this.keys.clientOf?.(accountId)
    if (!client) return
    const proof = await this.madeProof(client)
    await pool.query('SELECT team_add_proof($1, $2)', [account, proof])
  }

  /** Why this account's key is not established, if it is not (its writes are refused with it). */
  notEstablished(accountId: string): TeamError | undefined {
    return this.team.has(accountId) ? undefined : this.unsure.get(accountId)
  }

  // An account without a key (or not established) cannot write; its id is kept apart from every team account.
  toTeam = (id: string): string => this.team.get(id) ?? `local:${id}`
  toLocal = (account: string): string | undefined => {
    const ids = this.local.get(account)
    return ids ? [...ids][0] : undefined
  }
}
