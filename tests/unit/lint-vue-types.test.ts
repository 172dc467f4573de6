/**
 * The lint's promise rules read types in the .vue files' scripts, through the one program the
 * lint makes for all of them (scripts/vue-script-parser.mjs): a promise dropped, awaited when it
 * is none, or handed where nothing waits for it, in a component, fails the lint at its line.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

describe('the lint of a .vue file', () => {
  it('finds a dropped promise, an await of a plain value and a promise handed to a listener, with their lines', async () => {
    const probe = join(root, 'src', 'renderer', 'src', 'components', `LintProbe${process.pid}.vue`)
    writeFileSync(
      probe,
      [
        '<script setup lang="ts">',
        "import { ref } from 'vue'",
        'const count = ref(0)',
        'async function load(): Promise<number> { return count.value }',
        'load()',
        'async function waits(): Promise<void> { await count.value }',
        'void waits',
        "window.addEventListener('resize', async () => { await load() })",
        '</script>',
        '',
        '<template><p>{{ count }}</p></template>',
        '',
      ].join('\n'),
    )
    try {
      const [result] = await new ESLint({ cwd: root }).lintFiles([probe])
      const found = (result?.messages ?? []).map((m) => [m.line, m.ruleId])
      expect(found).toEqual([
        [5, '@typescript-eslint/no-floating-promises'],
        [6, '@typescript-eslint/await-thenable'],
        [8, '@typescript-eslint/no-misused-promises'],
      ])
    } finally {
      rmSync(probe, { force: true })
    }
  }, 60_000)
})
