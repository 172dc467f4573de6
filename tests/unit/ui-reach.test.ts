/**
 * Every operation of the areas built so far is called from the renderer: servers, svcips,
 * domains and domain search. (The DNS records editor, free DNS and the log list are issue 7.)
 * A static check over the renderer's source, so an operation cannot silently drop out of the UI.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENDPOINT_NAMES } from '../../src/shared/endpoints/table'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|vue)$/.test(f) ? [readFileSync(p, 'utf8')] : []
  })
}

const renderer = sources('src/renderer/src').join('\n')
const inScope = ENDPOINT_NAMES.filter((n) => /^(servers|svcips|domains|domainsearch)\./.test(n) && !n.startsWith('domains.dns.'))

describe('the UI reaches every operation', () => {
  it.each(inScope)('%s is called from the renderer', (name) => {
    const direct = `api.${name}(`
    const all = `api.all.${name}(`
    expect(renderer.includes(direct) || renderer.includes(all), `${name} is not called from src/renderer`).toBe(true)
  })
})
