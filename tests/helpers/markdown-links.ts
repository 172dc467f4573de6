/**
 * The links of the project's Markdown pages, checked as GitHub resolves them: a relative link
 * names a file or folder of the repository (from the page's own folder), and an `#anchor`, on the
 * page itself or on another `.md` page, names one of that page's headings by GitHub's slug
 * (lower case, punctuation dropped, each space a `-`, a repeated slug numbered `-1`, `-2`, ...).
 * What a fenced code block or a code span holds is neither a heading nor a link.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'

/** The files a check may read: a Markdown page's text, and whether a path is there at all. */
export interface PageFiles {
  /** The text of the file, or undefined when it is not a readable file. */
  read(path: string): string | undefined
  /** Whether a file or folder is at the path. */
  exists(path: string): boolean
}

export interface BrokenLink {
  /** The page, relative to the repository's root, with `/` between folders. */
  page: string
  line: number
  link: string
  why: string
}

const FENCE = /^[ \t]*(`{3,}|~{3,})/
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/

/** The lines of a page with fenced code blocks blanked (kept as empty lines, so line numbers hold). */
function proseLines(markdown: string): string[] {
  const out: string[] = []
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const open = FENCE.exec(line)?.[1]
    if (fence === undefined && open !== undefined) {
      fence = open
      out.push('')
    } else if (fence !== undefined) {
      // Closed by a line of the same character, at least as long, and nothing else.
      const close = /^[ \t]*(`+|~+)[ \t]*$/.exec(line)?.[1]
      if (close !== undefined && close[0] === fence[0] && close.length >= fence.length) fence = undefined
      out.push('')
    } else out.push(line)
  }
  return out
}

/** A heading's text as GitHub reads it before the slug: links as their text, code spans' text, no emphasis or tags. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/(\*\*|__|\*|~~)/g, '')
}

/** GitHub's slug of a heading's text (github-slugger's rule: letters, marks, digits, `_`, `-` kept; a space a `-`). */
export function githubSlug(heading: string): string {
  return headingText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor a page's headings make, duplicates numbered as GitHub numbers them. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const line of proseLines(markdown)) {
    const m = HEADING.exec(line)
    if (!m) continue
    const base = githubSlug(m[2] ?? '')
    let slug = base
    let n = seen.get(base) ?? 0
    while (anchors.has(slug)) slug = `${base}-${++n}`
    seen.set(base, n)
    anchors.add(slug)
  }
  return anchors
}

/** The link targets of one line of prose (code spans left out): inline links, images and reference definitions. */
function targetsOf(line: string): string[] {
  const prose = line.replace(/(`+)[^`]*?\1/g, '')
  const inline = [...prose.matchAll(/\]\(\s*<?([^()\s<>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '')
  const reference = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose)?.[1]
  return reference !== undefined ? [...inline, reference] : inline
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

/**
 * The broken links of one page: each relative link's file or folder must be there, inside the
 * repository; each anchor must be a heading's slug of the page it names (a `.md` page).
 */
export function brokenLinks(root: string, page: string, files: PageFiles): BrokenLink[] {
  const text = files.read(page)
  const name = relative(root, page).split(sep).join('/')
  if (text === undefined) return [{ page: name, line: 0, link: '', why: 'the page cannot be read' }]
  const broken: BrokenLink[] = []
  const anchorCache = new Map<string, Set<string> | undefined>()
  const anchorsAt = (path: string): Set<string> | undefined => {
    if (!anchorCache.has(path)) {
      const t = files.read(path)
      anchorCache.set(path, t === undefined ? undefined : anchorsOf(t))
    }
    return anchorCache.get(path)
  }
  proseLines(text).forEach((line, i) => {
    for (const link of targetsOf(line)) {
      if (link === '' || EXTERNAL.test(link)) continue
      const hash = link.indexOf('#')
      const pathPart = decodeURIComponent(hash < 0 ? link : link.slice(0, hash))
      const anchor = hash < 0 ? undefined : link.slice(hash + 1)
      const from = pathPart.startsWith('/') ? root : dirname(page)
      const target = pathPart === '' ? page : resolve(from, pathPart.replace(/^\/+/, ''))
      const say = (why: string) => broken.push({ page: name, line: i + 1, link, why })
      const inside = relative(root, target)
      if (inside.startsWith('..') || isAbsolute(inside)) {
        say('it leads out of the repository')
        continue
      }
      if (!files.exists(target)) {
        say(`${inside.split(sep).join('/')} is not there`)
        continue
      }
      if (anchor === undefined) continue
      if (!target.endsWith('.md')) {
        say('an anchor into a file that is not a Markdown page')
        continue
      }
      const anchors = anchorsAt(target)
      if (!anchors?.has(anchor)) say(`no heading of ${inside.split(sep).join('/') || name} makes #${anchor}`)
    }
  })
  return broken
}

/** How many relative links (and of them, with an anchor) a page holds: a check that finds none checks nothing. */
export function relativeLinkCount(markdown: string): { links: number; anchors: number } {
  let links = 0
  let anchors = 0
  for (const line of proseLines(markdown)) {
    for (const link of targetsOf(line)) {
      if (link === '' || EXTERNAL.test(link)) continue
      links++
      if (link.includes('#')) anchors++
    }
  }
  return { links, anchors }
}
