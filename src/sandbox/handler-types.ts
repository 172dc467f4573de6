/** What a handler gets and gives: the shape every area module implements. */
import type { OperationName, OperationParams } from './operations'
import type { SandboxState } from './state'
import type { ServiceBehaviour } from './behaviour'

export interface PagingOptions {
  /** How `paging.max` is filled: the total item count, or the number of pages. */
  pagingMax: 'total' | 'pages'
  defaultPageSize: number
  /** The largest `limit` honoured; larger requests are capped to it. */
  maxPageSize: number
}

export interface HandlerCtx<N extends OperationName> {
  /** The parameters, as the operation's model (operations.ts) has just accepted them. */
  p: OperationParams<N>
  state: SandboxState
  now: Date
  paging: PagingOptions
  service: ServiceBehaviour
}

export interface HandlerResult {
  results: unknown
  paging?: { max: number; page: number; limit: number }
}

export type Handler<N extends OperationName> = (ctx: HandlerCtx<N>) => HandlerResult

/** The operations whose names start with `Prefix.`: how an area names the operations it answers. */
export type EndpointsUnder<Prefix extends string> = Extract<OperationName, `${Prefix}.${string}`>

/** One handler for each of `Names`: leaving one out, or adding another, is a compile error. */
export type HandlersFor<Names extends OperationName> = { [N in Names]: Handler<N> }
