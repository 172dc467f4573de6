/**
 * The Team section's channels (issue 37 point 1), over TeamSettingsService. The payload was
 * validated at the boundary (payloads.ts); the password in it goes to the service once and is
 * never part of an answer. A database step that fails crosses as its team.* code.
 */
import type { TeamStatusView } from '@shared/team'
import { AppError } from '../base/app-error'
import type { TeamStatus, TeamSettingsService } from '../team/team-settings-service'
import { teamErrorOf } from '../team/team-error'
import { defaultNames } from '../team/team-settings'
import { local } from './channel'
import type { ChannelHandlers } from './handlers'

type TeamChannel = 'team.test' | 'team.connect' | 'team.status' | 'team.disconnect'

/**
 * Runs a database step; its failure as the team code the window words, titled by its kind
 * (team-error.ts teamErrorKind: never 'unauthorized', the kind of an API key the window offers to
 * replace). An AppError (the keychain's) is kept.
 */
async function teamStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (err) {
    if (err instanceof AppError) throw err
    const e = teamErrorOf(err)
    throw AppError.of(e.kind, { code: e.code, params: e.params })
  }
}

const viewOf = (s: TeamStatus): TeamStatusView => ({ ...s, defaults: defaultNames() })

export function createTeamHandlers(team: TeamSettingsService): { [C in TeamChannel]: ChannelHandlers[C] } {
  return {
    'team.test': local('team.test', ({ password, ...settings }) => teamStep(() => team.test(settings, password))),
    'team.connect': local('team.connect', async ({ password, ...settings }) =>
      viewOf(await teamStep(() => team.connect(settings, password))),
    ),
    'team.status': local('team.status', async () => viewOf(await teamStep(() => team.status()))),
    'team.disconnect': local('team.disconnect', async () => {
      await teamStep(() => team.disconnect())
      return viewOf({ configured: false })
    }),
  }
}
