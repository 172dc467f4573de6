/** Fault injection: tests make chosen requests fail the ways a real network and service can. */
import { setTimeout as sleep } from 'node:timers/promises'
import type { OperationName } from './operations'

export interface FaultSpec {
  /** Answer with this status instead of running the handler. */
  /** 400: a request the service refused; 403: a token that is not allowed the operation (API-SPEC section 5). */
  status?: 400 | 403 | 500 | 503 | 504
  /** With `status`: the error's message instead of the status's reason phrase (a service that quotes what it refused). */
  message?: string
  /** Wait this long before answering. */
  latencyMs?: number
  /** Destroy the connection without an answer. */
  reset?: boolean
  /** Answer 200 with a body that is not JSON. */
  malformed?: boolean
  /** Never answer (until the sandbox closes). */
  hang?: boolean
  /**
   * The request is carried out and logged as usual, but its answer is lost on the way back: the
   * connection is reset, or never answered. What a client sees after a time-out or a broken
   * connection when the service did act.
   */
  lostAnswer?: 'reset' | 'hang'
  /**
   * Hold the request (its key checked, its body read, nothing carried out yet) until the test
   * lets it go with `release`; then it goes on as usual, with any other effect of this spec.
   * A test decides the moment a request is answered, whatever the machine's speed.
   */
  hold?: boolean
  /** Affect only this many matching requests; then the fault is gone. */
  times?: number
}

export interface FaultRegistry {
  inject(route: OperationName | '*', spec: FaultSpec): void
  /** Removes every fault, and lets every held request go on. */
  clear(): void
  /** How many requests a `hold` fault holds now (of this endpoint, or of any). */
  held(route?: OperationName): number
  /** Lets held requests go on, oldest first: `count` of them, or every one. Returns how many went. */
  release(count?: number): number
}

/** A fault as taken for one request: a held request also carries the moment it is let go. */
export type TakenFault = FaultSpec & { released?: Promise<void> }

/** How a fault answers a request in place of its handler. */
export interface FaultReply {
  /** The error envelope, as for any failure. */
  fail(status: number, message: string): void
  /** A body the envelope's rules do not apply to. */
  raw(status: number, contentType: string, text: string): void
  /** Drops the connection with no answer at all. */
  drop(): void
}

const STATUS_MESSAGES = {
  400: 'Bad Request',
  403: 'Forbidden',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Time-out',
}

export function createFaults(): {
  /** What tests see (Sandbox.faults). */
  registry: FaultRegistry
  /** The fault for a request, if any: its endpoint's own first, then the one for every endpoint. */
  take(name: OperationName | undefined): TakenFault | undefined
} {
  const faults = new Map<string, FaultSpec>()
  /** Requests held now, oldest first. */
  const held: { endpoint: OperationName | undefined; go(): void }[] = []
  const release = (count = held.length) => {
    const going = held.splice(0, Math.max(0, count))
    for (const h of going) h.go()
    return going.length
  }
  return {
    registry: {
      // A copy, so that counting `times` down leaves the caller's spec as it was.
      inject: (route, spec) => faults.set(route, { ...spec }),
      clear: () => {
        faults.clear()
        release()
      },
      held: (route) => (route ? held.filter((h) => h.endpoint === route).length : held.length),
      release,
    },
    take(name) {
      for (const key of [name, '*']) {
        if (!key) continue
        const f = faults.get(key)
        if (!f) continue
        if (f.times !== undefined) {
          f.times -= 1
          if (f.times <= 0) faults.delete(key)
        }
        if (!f.hold) return f
        return { ...f, released: new Promise<void>((go) => held.push({ endpoint: name, go })) }
      }
      return undefined
    },
  }
}

/** Applies a fault to a request; true when the fault has dealt with the request (answered, dropped or left hanging). */
export async function applyFault(fault: TakenFault | undefined, reply: FaultReply): Promise<boolean> {
  if (!fault) return false
  if (fault.released) await fault.released
  if (fault.lostAnswer) return false
  if (fault.latencyMs) await sleep(fault.latencyMs)
  if (fault.hang) return true // the socket stays open until close() destroys it
  if (fault.reset) {
    reply.drop()
    return true
  }
  if (fault.status) {
    reply.fail(fault.status, fault.message ?? STATUS_MESSAGES[fault.status])
    return true
  }
  if (fault.malformed) {
    reply.raw(200, 'application/json', '{"results": [ this is not json')
    return true
  }
  return false
}
