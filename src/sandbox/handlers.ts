/**
 * One handler per endpoint of the table, gathered from the area modules. The mapped type
 * makes a missing endpoint a compile error, so the sandbox always covers the whole spec;
 * each area's own type refuses an endpoint that belongs to another.
 */
import type { EndpointName, EndpointParams } from '../shared/endpoints/table'
import { dnsHandlers } from './areas/dns'
import { domainHandlers } from './areas/domains'
import { domainSearchHandlers } from './areas/domainsearch'
import { freeDnsHandlers } from './areas/freedns'
import { logHandlers } from './areas/logs'
import { serverHandlers } from './areas/servers'
import { svcipHandlers } from './areas/svcips'
import type { HandlerCtx, HandlerResult, HandlersFor } from './handler-types'

const handlers: HandlersFor<EndpointName> = {
  ...serverHandlers,
  ...svcipHandlers,
  ...domainHandlers,
  ...dnsHandlers,
  ...domainSearchHandlers,
  ...freeDnsHandlers,
  ...logHandlers,
}

function dispatch<N extends EndpointName>(name: N, ctx: HandlerCtx<N>): HandlerResult {
  return handlers[name](ctx)
}

/**
 * Runs an endpoint's handler on parameters that its own schema has just accepted. TypeScript
 * cannot follow a name chosen at run time into the table, so that link is stated here, once.
 */
export function runHandler(name: EndpointName, validParams: unknown, env: Omit<HandlerCtx<EndpointName>, 'p'>): HandlerResult {
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the link from a run-time name to its schema's output, stated once (see above)
  return dispatch(name, { ...env, p: validParams as EndpointParams<EndpointName> })
}
