/**
 * The address of a server's page. Named by the server's name, which the user knows it by and
 * which reads in an address; by its id where the name cannot stand in a path (shared/service/server-ref.ts).
 * The page passes whichever it is straight to the service, which takes both.
 */
import { serverRefOf } from '@shared/service/server-ref'
import type { ServerKind } from '@shared/service/constants'

export const serverLink = (kind: ServerKind, s: { webid: string; webname: string }): string =>
  `/servers/${kind}/${encodeURIComponent(serverRefOf(s))}`
