/**
 * Loopback ports for the test servers that bind their own (PostgreSQL, pebble): such a server is
 * told a port, not handed a socket, so the port is found free, closed again, and bound by the
 * server a moment later; another process can take it in between. Two things close that window:
 *
 * - The port is picked below the system's ephemeral range (Linux's ip_local_port_range): every
 *   listen(0) and every outgoing connection on the machine takes its port from that range, so none
 *   of them can take this one, neither at the start nor while a test has stopped its server to
 *   start it again on the same port.
 * - A start whose bind failed all the same (another process told the same port) is tried again on
 *   new ports, a bounded number of times.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { listeningPort } from './listening-port'

/** The lowest port picked: below it are the ports services are usually configured on. */
const SPARE_FROM = 10_000
/** Ports tried below the ephemeral range before taking one the system picks. */
const PICKS = 20
/** Starts of a server, each on new ports, before giving up. */
const STARTS = 5

/** The first port of the ephemeral range, where the system says it (Linux). */
function ephemeralFrom(): number | undefined {
  try {
    const from = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    return Number.isInteger(from) ? from : undefined
  } catch {
    return undefined
  }
}

/** Binds `port` on loopback (0: one the system picks) and closes it again: the port, or undefined when it is taken. */
function bindOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(undefined))
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const bound = listeningPort(server)
      server.close(() => resolve(bound))
    })
  })
}

/** A loopback port free at this moment, below the ephemeral range when there is room there; none of `not`. */
async function freeLoopbackPort(not: ReadonlySet<number>): Promise<number> {
  const from = ephemeralFrom()
  if (from !== undefined && from > SPARE_FROM + 1_000) {
    for (let i = 0; i < PICKS; i++) {
      const port = SPARE_FROM + Math.floor(Math.random() * (from - SPARE_FROM))
      if (not.has(port)) continue
      const bound = await bindOnce(port)
      if (bound !== undefined) return bound
    }
  }
  for (let i = 0; i < PICKS; i++) {
    const bound = await bindOnce(0)
    if (bound !== undefined && !not.has(bound)) return bound
  }
  throw new Error('no free loopback port')
}

/**
 * A loopback port where nothing listens, for a connection that must be refused: free a moment ago
 * and left unbound, picked below the ephemeral range where no listen(0) or outgoing connection on
 * the machine can take it in the meantime.
 */
export function closedLoopbackPort(): Promise<number> {
  return freeLoopbackPort(new Set())
}

/**
 * Starts a server that binds ports it is told: `start` takes as many free ports as it needs from
 * `port()` (each one new) and answers undefined when the server could not bind one of them,
 * having stopped whatever it started; it is then called again with new ports, STARTS times at most.
 */
export async function startOnFreePorts<T>(start: (port: () => Promise<number>) => Promise<T | undefined>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const given = new Set<number>()
    const port = async () => {
      const p = await freeLoopbackPort(given)
      given.add(p)
      return p
    }
    const started = await start(port)
    if (started !== undefined) return started
    if (attempt >= STARTS) throw new Error(`the server could not bind its ports in ${STARTS} starts`)
  }
}
