import type { AddressInfo } from 'node:net'

/** The TCP port a server listens on; throws when it does not listen on one (not yet, or on a pipe). */
export function listeningPort(server: { address(): AddressInfo | string | null }): number {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port')
  return address.port
}
