#!/usr/bin/env node
/**
 * Temporary (issue 36 point 2; the integrator deletes it with moves-36-2.tsv after merging).
 * Moves files listed in scripts/moves-36-2.tsv (old path, new path, step) with `git mv` and
 * rewrites every relative import that named an old path so it names the new one.
 *
 *   node scripts/moves-36-2.mjs --step 1 --move     do step 1's moves and rewrite the whole tree
 *   node scripts/moves-36-2.mjs --files a.ts b.ts   after a merge: rewrite the imports in these files
 *                                                   (new files, or moved files edited on a branch)
 *                                                   that name a path from before the moves; imports
 *                                                   that already name an existing file stay
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, posix } from 'node:path'

const args = process.argv.slice(2)
const stepAt = args.indexOf('--step')
const step = stepAt >= 0 ? args[stepAt + 1] : undefined
const doMove = args.includes('--move')
const filesAt = args.indexOf('--files')
const onlyFiles = filesAt >= 0 ? args.slice(filesAt + 1).map((f) => posix.normalize(f)) : undefined

const rows = readFileSync('scripts/moves-36-2.tsv', 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => l.split('\t')).filter((r) => step === undefined || r[2] === step)
const forward = new Map(rows.map((r) => [r[0], r[1]]))
const backward = new Map(rows.map((r) => [r[1], r[0]]))

if (doMove) {
  for (const [from, to] of forward) {
    if (!existsSync(from)) continue
    execFileSync('mkdir', ['-p', dirname(to)])
    execFileSync('git', ['mv', from, to])
  }
}

const tracked = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean)
  .filter((f) => existsSync(f))
const extraFiles = onlyFiles ?? []
const current = new Set([...tracked, ...extraFiles])
// The tree as it was before the moves: every current path, moved ones under their old name.
const oldWorld = new Set([...current].map((f) => backward.get(f) ?? f))
const SUFFIXES = ['', '.ts', '.vue', '.mjs', '.js', '.cjs', '.d.ts', '/index.ts']

function resolveIn(world, path) {
  for (const s of SUFFIXES) if (world.has(posix.normalize(path + s))) return { file: posix.normalize(path + s), suffix: s }
  return undefined
}

const SPEC = /((?:from|import|mock|require|importActual|resolve)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g
const targets = onlyFiles ?? tracked.filter((f) => /\.(ts|vue|mjs|cjs|js|mts)$/.test(f))
let changed = 0
for (const file of targets) {
  const oldFile = backward.get(file) ?? file
  const text = readFileSync(file, 'utf8')
  const next = text.replace(SPEC, (all, lead, q, spec) => {
    // A merged file may mix lines already right (a moved file's old lines, rewritten here) with
    // lines written against the old paths: what already names a file that exists stays.
    if (onlyFiles && resolveIn(current, posix.join(posix.dirname(file), spec))) return all
    const hit = resolveIn(oldWorld, posix.join(posix.dirname(oldFile), spec))
    if (!hit) return all
    const movedTo = forward.get(hit.file)
    if (!movedTo && oldFile === file) return all
    const target = movedTo ?? hit.file
    let tail = target
    // A file that became its folder's index.ts is still named by the folder.
    if (hit.suffix === '/index.ts' || (hit.suffix === '.ts' && target.endsWith('/index.ts'))) tail = posix.dirname(target)
    else if (hit.suffix) tail = target.slice(0, target.length - hit.suffix.length)
    let rel = posix.relative(posix.dirname(file), tail)
    if (!rel.startsWith('.')) rel = './' + rel
    return `${lead}${q}${rel}${q}`
  })
  if (next !== text) { writeFileSync(file, next); changed++ }
}
console.log(`moved ${doMove ? forward.size : 0} (listed), rewrote imports in ${changed} files`)
