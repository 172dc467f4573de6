/**
 * The README and docs/ (issue 51 point 6): every relative link and every #anchor of README.md and
 * docs/**\/*.md resolves as GitHub resolves it, the README stays a page a newcomer reads in five
 * minutes, and its two set-up commands are still what CI runs. The checker itself is shown to
 * find a broken link, a missing anchor and a wrong duplicate's number on pages made here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchorsOf, brokenLinks, githubSlug, relativeLinkCount, type PageFiles } from '../helpers/markdown-links'

const ROOT = resolve(__dirname, '../..')

const onDisk: PageFiles = {
  read: (path) => (existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined),
  exists: (path) => existsSync(path),
}

function markdownUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((e) => {
    const path = join(folder, e.name)
    if (e.isDirectory()) return markdownUnder(path)
    return e.name.endsWith('.md') ? [path] : []
  })
}

const PAGES = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs'))]

/** Pages held in memory, under a made-up root: what the checker is shown to catch. */
function pagesOf(files: Record<string, string>): { root: string; files: PageFiles } {
  const root = resolve('/fixture-repo')
  const texts = new Map(Object.entries(files).map(([name, text]) => [resolve(root, name), text]))
  const folders = new Set(
    [...texts.keys()].flatMap((p) => {
      const parts = p
        .slice(root.length + 1)
        .split('/')
        .slice(0, -1)
      return parts.map((_, i) => resolve(root, ...parts.slice(0, i + 1)))
    }),
  )
  return { root, files: { read: (p) => texts.get(p), exists: (p) => texts.has(p) || folders.has(p) } }
}

describe('the README and docs/ as a reader finds them', () => {
  it('every relative link and every anchor of README.md and docs/**/*.md resolves', () => {
    const names = PAGES.map((p) => p.slice(ROOT.length + 1))
    expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/contributing.md']))
    const broken = PAGES.flatMap((page) => brokenLinks(ROOT, page, onDisk))
    expect(broken).toEqual([])
    // A check that met no link would pass on anything: the pages link to each other, anchors included.
    const counted = PAGES.map((p) => relativeLinkCount(readFileSync(p, 'utf8')))
    expect(counted.reduce((n, c) => n + c.links, 0)).toBeGreaterThan(60)
    expect(counted.reduce((n, c) => n + c.anchors, 0)).toBeGreaterThan(30)
  })

  it('the README is short: at most 200 lines, with the pictures and a way to every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(readme.split('\n').length).toBeLessThanOrEqual(200)
    for (const picture of ['domains', 'dns-plan', 'confirm', 'health']) {
      expect(readme).toContain(`](docs/screenshot-${picture}.png)`)
    }
    for (const page of markdownUnder(join(ROOT, 'docs'))) {
      expect(readme).toContain(`](docs/${page.slice(ROOT.length + 6)}`)
    }
  })

  it('the README’s two set-up commands are as they were, and .ci/run runs the test one', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(readme).toContain('```sh\nbash scripts/setup.sh && npm start\n```')
    expect(readme).toContain('```sh\nbash scripts/setup.sh --test && npm test\n```')
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n')
    expect(ci).toContain('bash scripts/setup.sh --test && npm test')
  })
})

describe('the link checker', () => {
  it('makes anchors by GitHub’s rules: lower case, punctuation dropped, spaces to -, duplicates numbered', () => {
    expect(githubSlug('Team mode (PostgreSQL)')).toBe('team-mode-postgresql')
    expect(githubSlug('Zone health and `dns served`')).toBe('zone-health-and-dns-served')
    expect(githubSlug('certbot (DNS-01, wildcard certificates)')).toBe('certbot-dns-01-wildcard-certificates')
    expect(githubSlug('The renderer’s layers')).toBe('the-renderers-layers')
    expect(githubSlug('The floors of src/main')).toBe('the-floors-of-srcmain')
    expect(githubSlug('Without Electron: npm run ui')).toBe('without-electron-npm-run-ui')
    expect(githubSlug('A [link](x.md) and **bold** and snake_case')).toBe('a-link-and-bold-and-snake_case')
    const page = '# Notes\n\n## Notes\n\n## Notes\n\n```\n# not a heading\n```\n\n### Notes-1 ###\n'
    expect([...anchorsOf(page)]).toEqual(['notes', 'notes-1', 'notes-2', 'notes-1-1'])
  })

  it('finds a link to a file that is not there, an anchor no heading makes, and one into another page', () => {
    const { root, files } = pagesOf({
      'README.md': [
        '# Title',
        '',
        'See [the guide](docs/guide.md), [its setup](docs/guide.md#setting-it-up) and [a picture](docs/shot.png).',
        'A [lost page](docs/gone.md), a [lost anchor](#no-such-heading) and [a wrong one](docs/guide.md#set-up).',
        'A [second heading](#title-1), [out of the repository](../elsewhere.md), [the web](https://example.com/x#y).',
        '`[in code](missing.md)` is not a link, nor is this:',
        '```',
        '[in a fence](missing-too.md)',
        '```',
      ].join('\n'),
      'docs/guide.md': '# Guide\n\n## Setting it up\n\nBack to [the README](../README.md#title).\n',
      'docs/shot.png': 'png',
    })
    const broken = brokenLinks(root, resolve(root, 'README.md'), files)
    expect(broken.map((b) => [b.line, b.link])).toEqual([
      [4, 'docs/gone.md'],
      [4, '#no-such-heading'],
      [4, 'docs/guide.md#set-up'],
      [5, '#title-1'],
      [5, '../elsewhere.md'],
    ])
    expect(broken[0]?.why).toBe('docs/gone.md is not there')
    expect(broken[2]?.why).toBe('no heading of docs/guide.md makes #set-up')
    expect(brokenLinks(root, resolve(root, 'docs/guide.md'), files)).toEqual([])
  })
})
