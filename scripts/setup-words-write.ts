/**
 * Writes scripts/setup-words.json: the setup scripts' words (`setup.*`) from the app's catalogue,
 * in both languages. The scripts run before anything is installed, with plain Node.js, so they
 * cannot read the catalogue's TypeScript; tests/unit/setup-words.test.ts fails when the file and
 * the catalogue part. Run `npx tsx scripts/setup-words-write.ts` after changing a `setup.*` text.
 */
import { writeFileSync } from 'node:fs'
import { setupWords } from './setup-words-of'

writeFileSync(new URL('./setup-words.json', import.meta.url), `${JSON.stringify(setupWords(), null, 2)}\n`)
