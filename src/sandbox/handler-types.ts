/** What a handler gets and gives: the shape every area module implements. */
import type { EndpointName, EndpointParams } from '../shared/endpoints/table'
import type { SandboxState } from './state'
import type { ServiceBehaviour } from './behaviour'

export interface PagingOptions {
  /** How `paging.max` is filled: the total item count, or the number of pages. */
  pagingMax: 'total' | 'pages'
  defaultPageSize: number
  /** The largest `limit` honoured; larger requests are capped to it. */
  maxPageSize: number
}

export interface HandlerCtx<N extends EndpointName> {
  /** The parameters, already validated by the endpoint's schema. */
  p: EndpointParams<N>
  state: SandboxState
  now: Date
  paging: PagingOptions
  service: ServiceBehaviour
}

export interface HandlerResult {
  results: unknown
  paging?: { max: number; page: number; limit: number }
}

export type Handler<N extends EndpointName> = (ctx: HandlerCtx<N>) => HandlerResult

/** The endpoints whose names start with `Prefix.`: how an area names the operations it answers. */
export type EndpointsUnder<Prefix extends string> = Extract<EndpointName, `${Prefix}.${string}`>

/** One handler for each of `Names`: leaving one out, or adding another, is a compile error. */
export type HandlersFor<Names extends EndpointName> = { [N in Names]: Handler<N> }
