/**
 * The floors of src/main, from the ground up (ARCHITECTURE's layer order, VS Code's import
 * patterns as the model): a module imports only rooms on floors below its own, never a room on
 * its own floor but its own (http and store are siblings that never import each other). `index.ts`,
 * the Electron entry, may also use shell/ beside it. A lint rule (`layers/main-floors`), so an
 * upward import fails `npm run lint` (tests/unit/layers-lint.test.ts shows it does).
 */
import { dirname, relative, resolve, sep } from 'node:path'

export const MAIN_FLOORS = [
  ['base'],
  ['http', 'store'],
  ['accounts'],
  ['dns-health', 'ddns', 'reminders'],
  ['reads', 'jobs/ledger'],
  ['jobs'],
  ['team'],
  ['ipc'],
  ['door'],
  ['app'],
  ['shell', 'index.ts'],
]

const floorOf = new Map(MAIN_FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor])))

/** The room of a file of src/main (its top folder; jobs/ledger its own), or undefined outside src/main. */
function roomOf(main, file) {
  const parts = relative(main, file).split(sep)
  if (parts[0] === '..' || parts[0] === '') return undefined
  if (parts.length === 1) return parts[0].replace(/\.(ts|js|mjs)$/, '.ts')
  if (parts[0] === 'jobs' && parts[1] === 'ledger' && parts.length > 2) return 'jobs/ledger'
  return parts[0]
}

const mainFloors = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      up: 'src/main/{{from}} (floor {{fromFloor}}) may not import {{to}} (floor {{toFloor}}): a room imports only floors below its own (scripts/eslint-layers.mjs).',
    },
  },
  create(context) {
    const main = resolve(context.cwd ?? process.cwd(), 'src/main')
    const file = context.filename
    const from = roomOf(main, file)
    if (from === undefined || !floorOf.has(from)) return {}
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return
      const to = roomOf(main, resolve(dirname(file), source))
      if (to === undefined || to === from || !floorOf.has(to)) return
      const fromFloor = floorOf.get(from)
      const toFloor = floorOf.get(to)
      if (toFloor < fromFloor && !(from === 'index.ts' && to === 'shell')) return
      if (from === 'index.ts' && to === 'shell') return
      context.report({ node, messageId: 'up', data: { from, to, fromFloor, toFloor } })
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    }
  },
}

export const layersPlugin = { rules: { 'main-floors': mainFloors } }
