/**
 * One handler per operation of the sandbox's model (operations.ts), gathered from the area
 * modules. The mapped type makes a missing operation a compile error, so the sandbox always
 * covers the whole spec; each area's own type refuses an operation that belongs to another.
 */
import type { OperationName, OperationParams } from './operations'
import { dnsHandlers } from './areas/dns'
import { domainHandlers } from './areas/domains'
import { domainSearchHandlers } from './areas/domainsearch'
import { freeDnsHandlers } from './areas/freedns'
import { logHandlers } from './areas/logs'
import { serverHandlers } from './areas/servers'
import { svcipHandlers } from './areas/svcips'
import type { HandlerCtx, HandlerResult, HandlersFor } from './handler-types'

const handlers: HandlersFor<OperationName> = {
  ...serverHandlers,
  ...svcipHandlers,
  ...domainHandlers,
  ...dnsHandlers,
  ...domainSearchHandlers,
  ...freeDnsHandlers,
  ...logHandlers,
}

function dispatch<N extends OperationName>(name: N, ctx: HandlerCtx<N>): HandlerResult {
  return handlers[name](ctx)
}

/**
 * Runs an operation's handler on parameters that its own model has just accepted. TypeScript
 * cannot follow a name chosen at run time into the model, so that link is stated here, once.
 */
export function runHandler(
  name: OperationName,
  validParams: unknown,
  env: Omit<HandlerCtx<OperationName>, 'p'>,
): HandlerResult {
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the link from a run-time name to its model's output, stated once (see above)
  return dispatch(name, { ...env, p: validParams as OperationParams<OperationName> })
}
