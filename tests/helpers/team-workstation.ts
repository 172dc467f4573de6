/**
 * A workstation of the team tests: its own data folder in team mode on the test cluster, its own
 * services (the app's real IPC router), and the account of the sandbox added with a key kept for
 * the session. Two of them on one database and one sandbox are two colleagues.
 */
import { rmSync } from 'node:fs'
import { createAppServices, type AppServices } from '../../src/main/app/app-services'
import { SessionSecretStore } from '../../src/main/accounts/secret-store'
import type { Desktop } from '../../src/main/base/desktop'
import type { TeamStatus } from '../../src/main/team/team-mode'
import type { Sandbox } from '../../src/sandbox'
import type { TestPostgres } from '../../support/postgres'
import { profileFor } from '../../support/profile'
import { teamDataFolder } from '../../support/team-ledgers'
import { APP, routerCalls } from './router-calls'

export interface TeamWorkstation {
  services: AppServices
  accountId: string
  calls: ReturnType<typeof routerCalls>
  /** Every team status it has said, in order. */
  statuses: TeamStatus[]
  dir: string
}

/** `desktop`: a double that keeps what the workstation shows (its notifications). */
export async function openTeamWorkstation(
  db: TestPostgres,
  sb: Sandbox,
  member: string,
  workstation: string,
  opts: { leaseMs?: number; desktop?: Desktop } = {},
): Promise<TeamWorkstation> {
  const dir = await teamDataFolder(db, member, workstation, opts)
  const services = await createAppServices({
    userDataDir: dir,
    allowedOrigins: [APP],
    keychain: async () => new SessionSecretStore(),
    cliDoor: false,
    logCheckDelaysMs: [50, 100],
    ...(opts.desktop ? { desktop: opts.desktop } : {}),
  })
  const statuses: TeamStatus[] = []
  services.team.onStatus((s) => statuses.push(s))
  const calls = routerCalls(() => services)
  const accountId = (
    await calls.ok('accounts.create', {
      fields: profileFor(sb, 'Shop', 5000),
      apiKey: sb.keys.full,
      storage: 'session',
    })
  ).id
  return { services, accountId, calls, statuses, dir }
}

/** Closes each workstation opened (undefined: its opening failed) and removes its folder. */
export async function closeTeamWorkstations(ws: Array<TeamWorkstation | undefined>): Promise<void> {
  for (const w of ws) {
    if (!w) continue
    await w.services.close()
    rmSync(w.dir, { recursive: true, force: true })
  }
}
