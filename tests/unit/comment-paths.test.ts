/**
 * Every file a comment names exists: a comment that points at `src/main/jobs/runner.ts`, or at
 * `jobs/runner.ts` from inside src/main, sends a reader there, so a file moved or renamed without
 * its mentions leaves them lost. The comments of src/, tests/, bench/, support/ and scripts/ are
 * read (the `//`, `/* … *\/`, `#` and `<!-- -->` lines); a mention is a path with a folder and a
 * source file's extension. One that starts at a top folder of the project is looked up there; a
 * shorter one beside the file, in one of its parent folders, under src/, src/main/,
 * src/renderer/src/ or src/shared/ (as the comments of each part name their own files), or in a
 * package. A path in quotes is an example of code, not a mention.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = process.cwd()
const SCANNED = ['src', 'tests', 'bench', 'support', 'scripts']
const TOP = ['src', 'tests', 'bench', 'support', 'scripts', 'docs', 'build', 'bin', '.ci']
const SOURCE_FILE = /\.(ts|mts|mjs|cjs|js|vue|sh)$/
const EXTENSIONS = 'ts|mts|mjs|cjs|js|vue|sh|json|md|yml|yaml|css|html'
/** A path with at least one folder; not part of a URL, a longer path, a variable's (`$dir/x.sh`) or a quoted example. */
const MENTION = new RegExp(
  String.raw`(?<![\w./@:~$'"-])((?:\.{1,2}/)*[\w.-]+(?:/[\w.-]+)+\.(?:${EXTENSIONS}))(?![\w/-])`,
  'g',
)
/** Where a comment names a file of its own part without the part's folder; a package's file is in node_modules. */
const BASES = ['src', 'src/main', 'src/renderer/src', 'src/shared', 'node_modules']
/** Files of the installed command's folder (scripts/stage-command.ts lays it out), not of the project. */
const INSTALLED = new Set(['resources/cli/hosting-admin.mjs', 'main/cli.js'])

/** The comment text of a file's lines: whole-line comments and trailing `// …`. */
function commentLines(text: string, shell: boolean): string[] {
  const out: string[] = []
  let inBlock = false
  for (const line of text.split('\n')) {
    const t = line.trim()
    if (shell) {
      const at = t.indexOf('#')
      if (at === 0 || (at > 0 && /\s/.test(t[at - 1] ?? ''))) out.push(t.slice(at))
      continue
    }
    if (inBlock) {
      out.push(t)
      if (t.includes('*/') || t.includes('-->')) inBlock = false
      continue
    }
    if (t.startsWith('/*') || t.startsWith('<!--')) {
      out.push(t)
      inBlock = !t.includes('*/') && !t.includes('-->')
      continue
    }
    if (t.startsWith('//') || t.startsWith('*')) {
      out.push(t)
      continue
    }
    const trailing = line.search(/\s\/\/\s/)
    if (trailing >= 0) out.push(line.slice(trailing))
  }
  return out
}

/** The paths a comment line names. */
function pathsNamed(comment: string): string[] {
  return [...comment.matchAll(MENTION)].map((m) => m[1] ?? '').filter((p) => p !== '')
}

/** Whether a path named in `file` (relative to the project) is a file or folder of the project. */
function resolves(root: string, file: string, named: string): boolean {
  if (INSTALLED.has(named)) return true
  // The build's output (electron.vite.config.ts names it): there only after a build, which this test does not need.
  if (named.startsWith('out/')) return true
  const top = named.split('/')[0] ?? ''
  if (TOP.includes(top)) return existsSync(join(root, named))
  const dirs: string[] = []
  for (let d = dirname(file); d !== '.' && d !== ''; d = posix.dirname(d)) dirs.push(d)
  return [...dirs, ...BASES, '.'].some((d) => existsSync(join(root, d, named)))
}

function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name === 'fixtures') continue
    const path = posix.join(dir, name)
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path))
    else if (SOURCE_FILE.test(name)) out.push(path)
  }
  return out
}

/** Every `file: path` whose comment names a path that does not exist. */
function staleMentions(root: string, files: readonly string[], read: (f: string) => string): string[] {
  const stale: string[] = []
  for (const file of files) {
    for (const comment of commentLines(read(file), file.endsWith('.sh'))) {
      for (const named of pathsNamed(comment)) if (!resolves(root, file, named)) stale.push(`${file}: ${named}`)
    }
  }
  return stale
}

describe('paths named in comments', () => {
  it('names only files that exist', () => {
    const files = SCANNED.flatMap(filesUnder)
    expect(files.length).toBeGreaterThan(500)
    expect(staleMentions(ROOT, files, (f) => readFileSync(join(ROOT, f), 'utf8'))).toEqual([])
  })

  it('finds a stale name, rooted or beside the file, in every kind of comment', () => {
    const gone = ['src/main/jobs/', 'gone-away.ts'].join('')
    const nowhere = ['reads/', 'nowhere.ts'].join('')
    const text = [
      `/** See ${gone}, as src/main/jobs/runner.ts does. */`,
      `const a = 1 // as ${nowhere} does, and jobs/runner.ts`,
      '/*',
      ` * then shared/${'gone.ts'}; "./x.js" is an example`,
      ' */',
      `const b = '${gone}'`,
    ].join('\n')
    expect(staleMentions(ROOT, ['src/main/ipc/example.ts'], () => text)).toEqual([
      `src/main/ipc/example.ts: ${gone}`,
      `src/main/ipc/example.ts: ${nowhere}`,
      `src/main/ipc/example.ts: shared/${'gone.ts'}`,
    ])
    const script = `# runs scripts/${'gone.sh'} and scripts/setup.sh\necho scripts/x.sh`
    expect(staleMentions(ROOT, ['scripts/example.sh'], () => script)).toEqual([
      `scripts/example.sh: scripts/${'gone.sh'}`,
    ])
  })
})
