/**
 * The floors of src/main hold because the lint says so (scripts/eslint-layers.mjs): a module that
 * imports a room above its own, or a sibling on its own floor, fails `npm run lint`; an import
 * downwards passes. Linted through ESLint's own API with the project's config, as `npm run lint`
 * reads it, on text given in place of a real file of src/main (the project service knows only real files).
 */
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function floorMessages(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'layers/main-floors').map((m) => m.message)
}

describe('the floors of src/main', () => {
  it('refuses the store importing the HTTP client (siblings on one floor)', async () => {
    const messages = await floorMessages('src/main/store/lists.ts', "import { createApiClient } from '../http/client'\nexport const c = createApiClient\n")
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain('store')
    expect(messages[0]).toContain('http')
  })

  it('refuses the jobs importing team mode and the ground importing the app', async () => {
    expect(await floorMessages('src/main/jobs/targets.ts', "export { TeamLedger } from '../team/team-ledger'\n")).toHaveLength(1)
    expect(await floorMessages('src/main/base/app-version.ts', "import '../app/app-services'\n")).toHaveLength(1)
  })

  it('lets a room import the floors below it and its own folder', async () => {
    const source = "import { AppError } from '../base/app-error'\nimport { JobRunner } from './runner'\nexport { AppError, JobRunner }\n"
    expect(await floorMessages('src/main/jobs/targets.ts', source)).toEqual([])
    expect(await floorMessages('src/main/team/account-identity.ts', "export * from '../jobs/ledger/write-ledger'\n")).toEqual([])
  })
})
