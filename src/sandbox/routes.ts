/** The table's endpoints as routes: matching a request's method and path, and gathering its parameters. */
import { ENDPOINT_NAMES, endpoints, paramLocation, pathParamNames, type EndpointDef, type EndpointName, type ServerKind } from '../shared/endpoints/table'

export interface Route {
  name: EndpointName
  def: EndpointDef
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
  return ENDPOINT_NAMES.map((name) => {
    const def: EndpointDef = endpoints[name]
    const source = def.path.replace(/\{(\w+)\}/g, (_, p: string) => (p === 'kind' ? `(${words})` : '([^/]+)'))
    return {
      name,
      def,
      regex: new RegExp(`^${source}/?$`),
      pathParams: pathParamNames(def.path),
      params: Object.keys(endpoints[name].params.shape),
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
  /** The path word of each server kind, back to the kind the table's schemas know. */
  kindByWord: ReadonlyMap<string, ServerKind>
}

/** A request's parameters, each taken from where the table says it goes, before validation. */
export function gatherParams(route: Route, { pathValues, query, body, kindByWord }: RequestParts): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  for (const name of route.params) {
    const where = paramLocation(route.def, name)
    if (where === 'path') raw[name] = name === 'kind' ? kindByWord.get(pathValues[name] ?? '') : pathValues[name]
    else if (where === 'query') {
      const v = query[name]
      // Query text is all a URL has; the paging numbers are numbers in the schemas.
      if (v !== undefined) raw[name] = name === 'limit' || name === 'page' ? (/^\d+$/.test(v) ? Number(v) : v) : v
    } else if (name in body) raw[name] = body[name]
  }
  return raw
}
