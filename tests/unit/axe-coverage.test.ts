/**
 * Every screen of the router is scanned with axe by some end-to-end test, once: the list in
 * tests/e2e/axe-screens.ts names a test for each, and that test does scan it.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AXE_SCREENS, onRoute, plainRoute } from '../e2e/axe-screens'

const E2E = 'tests/e2e'
const specs = readdirSync(E2E).filter((f) => f.endsWith('.spec.ts'))
const source = (spec: string) => readFileSync(join(E2E, spec), 'utf8')

/** The routes of router.ts that show a screen (not the redirects). */
function screenRoutes(): string[] {
  const text = readFileSync('src/renderer/src/router.ts', 'utf8')
  const routes: string[] = []
  for (const m of text.matchAll(/\{\s*path:\s*(['`])(.*?)\1,\s*(component|redirect):/g))
    if (m[3] === 'component') routes.push(plainRoute(m[2]!))
  return routes
}

/** The text of one test, from its title to the next test or describe at any depth. */
function testBody(text: string, title: string): string | undefined {
  const start = text.indexOf(`test('${title}'`)
  if (start < 0) return undefined
  const rest = text.slice(start + 1)
  const next = rest.search(/\n\s*test(\.describe)?\(/)
  return next < 0 ? rest : rest.slice(0, next)
}

/** Every scan in the specs: the screen and the file. */
function scans(): { screen: string; spec: string }[] {
  return specs.flatMap((spec) =>
    [...source(spec).matchAll(/expectNoAxeViolations\(\s*\w+,\s*'([^']+)'/g)].map((m) => ({ screen: m[1]!, spec })),
  )
}

describe('axe coverage of the screens', () => {
  it('reads the routes of the router', () => {
    expect(screenRoutes()).toContain('/servers/:kind/:webid')
    expect(screenRoutes().length).toBeGreaterThan(15)
  })

  it('scans every screen of the router', () => {
    const listed = Object.values(AXE_SCREENS).map((s) => s.route)
    expect(screenRoutes().filter((r) => !listed.includes(r))).toEqual([])
    // And names no route the router does not have.
    expect(listed.filter((r) => !screenRoutes().includes(r))).toEqual([])
  })

  it('each listed screen is scanned in the test the list names, once in all the specs', () => {
    const all = scans()
    const problems: string[] = []
    for (const [screen, where] of Object.entries(AXE_SCREENS)) {
      if (!specs.includes(where.spec)) problems.push(`${screen}: no spec ${where.spec}`)
      else {
        const body = testBody(source(where.spec), where.test)
        if (!body) problems.push(`${screen}: no test "${where.test}" in ${where.spec}`)
        else if (!new RegExp(`expectNoAxeViolations\\(\\s*\\w+,\\s*'${screen}'`).test(body))
          problems.push(`${screen}: "${where.test}" does not scan it`)
      }
      const times = all.filter((s) => s.screen === screen).length
      if (times !== 1) problems.push(`${screen}: scanned ${times} times`)
    }
    for (const s of all)
      if (!(s.screen in AXE_SCREENS)) problems.push(`${s.spec} scans "${s.screen}", which the list does not name`)
    expect(problems).toEqual([])
  })

  it('matches an address to its route', () => {
    expect(onRoute('/servers/:kind/:webid', '/servers/a/web01')).toBe(true)
    expect(onRoute('/servers/:kind', '/servers/a/web01')).toBe(false)
    expect(onRoute('/domains/:name', '/domains/example.com')).toBe(true)
    expect(onRoute('/domains/settings', '/domains/example.com')).toBe(false)
    expect(plainRoute('/servers/:kind(a|b|c)/:webid(${SERVER_REF_PATTERN})')).toBe('/servers/:kind/:webid')
    expect(plainRoute('/svcips/:vipid(\\\\d+)')).toBe('/svcips/:vipid')
  })
})
