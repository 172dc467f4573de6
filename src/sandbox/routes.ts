/** The sandbox's operations as routes: matching a request's method and path, and gathering its parameters. */
import type { ServerKind } from '@shared/service/constants'
import {
  OPERATION_NAMES,
  OPERATIONS,
  paramPlace,
  pathParamNames,
  type OperationDef,
  type OperationName,
} from './operations'

export interface Route {
  name: OperationName
  def: OperationDef
  regex: RegExp
  pathParams: string[]
  /** Every parameter the endpoint takes, wherever it goes. */
  params: string[]
  staticSegments: number
}

export interface RouteMatch {
  route: Route
  pathValues: Record<string, string>
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export function buildRoutes(serverPaths: Record<ServerKind, string>): Route[] {
  const words = Object.values(serverPaths).map(escapeRegex).join('|')
  return OPERATION_NAMES.map((name) => {
    const def: OperationDef = OPERATIONS[name]
    const source = def.path.replace(/\{(\w+)\}/g, (_, p: string) => (p === 'kind' ? `(${words})` : '([^/]+)'))
    return {
      name,
      def,
      regex: new RegExp(`^${source}/?$`),
      pathParams: pathParamNames(def.path),
      params: Object.keys(def.params.shape),
      staticSegments: def.path.split('/').filter((s) => s && !s.startsWith('{')).length,
    }
  })
}

/** The route for a method and path: among matches, the most specific (most literal segments) wins. */
export function matchRoute(routes: Route[], method: string, path: string): RouteMatch | undefined {
  let best: RouteMatch | undefined
  for (const route of routes) {
    if (route.def.method !== method) continue
    const m = route.regex.exec(path)
    if (!m) continue
    if (best && best.route.staticSegments >= route.staticSegments) continue
    const pathValues: Record<string, string> = {}
    route.pathParams.forEach((p, i) => {
      pathValues[p] = decodeURIComponent(m[i + 1] ?? '')
    })
    best = { route, pathValues }
  }
  return best
}

export interface RequestParts {
  pathValues: Record<string, string>
  query: Record<string, string>
  body: Record<string, unknown>
  /** The path word of each server kind, back to the kind the operations name. */
  kindByWord: ReadonlyMap<string, ServerKind>
}

/** A request's parameters, each taken from where the operation reads it, before they are checked. */
export function gatherParams(
  route: Route,
  { pathValues, query, body, kindByWord }: RequestParts,
): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  for (const name of route.params) {
    const where = paramPlace(route.def, name)
    if (where === 'path') raw[name] = name === 'kind' ? kindByWord.get(pathValues[name] ?? '') : pathValues[name]
    else if (where === 'query') {
      // Query text is all a URL has; the operations read numbers from text themselves.
      const v = query[name]
      if (v !== undefined) raw[name] = v
    } else if (name in body) raw[name] = body[name]
  }
  return raw
}
