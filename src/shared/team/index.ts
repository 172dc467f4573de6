/**
 * What the Team section of "Accounts & settings" and main say to each other (issue 37 point 1):
 * plain data, never the database's password (it crosses once, from the form to main's keychain,
 * and is never answered back).
 */

/** How the connection is protected: none, TLS without checking the certificate, TLS with the CA and the host name checked. */
export const TEAM_SSL_MODES = ['disable', 'require', 'verify-full'] as const
export type TeamSslMode = (typeof TEAM_SSL_MODES)[number]

/** The team schema a database holds, against this app's own version. */
export type TeamSchemaState = 'absent' | 'current' | 'older' | 'newer'

export interface TeamTestResult {
  schema: TeamSchemaState
  version?: number | undefined
}

export interface TeamWorkstationView {
  workstation: string
  member: string
  /** ISO time it was last seen connected. */
  lastSeen: string
}

/** The names this machine offers before the user chooses: the OS user and the host name. */
export interface TeamDefaults {
  member: string
  workstation: string
}

export type TeamStatusView =
  | { configured: false; defaults: TeamDefaults }
  | {
      configured: true
      defaults: TeamDefaults
      member: string
      workstation: string
      /** database@host:port */
      where: string
      /** How the connection is protected. */
      sslmode: TeamSslMode
      version: number
      workstations: TeamWorkstationView[]
    }
