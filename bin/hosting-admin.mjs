#!/usr/bin/env node
// hosting-admin: the app's accounts, keys, safety and history from a script (src/cli/main.ts).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const built = new URL('../out/main/cli.js', import.meta.url)
if (!existsSync(fileURLToPath(built))) {
  process.stderr.write('hosting-admin is not built yet: run `npm run build` in the app folder first.\n')
  process.exit(1)
}
await import(built.href)
