/**
 * The reminder walks' starting point: every item of the sandbox years away and renewing by hand,
 * so that only the dates a walk then picks are due.
 */
import type { Sandbox } from '../../src/sandbox'

const FAR = '2033-01-01'

export function farAway(sb: Sandbox): void {
  for (const d of sb.state.domains)
    Object.assign(d, { expirationdate: FAR, autorenew: 0, autorenew_all: 0, autorenew_domain: 0 })
  for (const list of Object.values(sb.state.servers))
    for (const s of list) Object.assign(s, { expirationdate: FAR, autorenew: 0, autorenew_all: 0, autorenew_server: 0 })
  for (const v of sb.state.svcips) v.expirationdate = FAR
}
