/**
 * The floors of src/main hold because the lint says so (scripts/eslint-layers.mjs): a module that
 * imports a room above its own, or a sibling on its own floor, fails `npm run lint`; an import
 * downwards passes. Two parts: the project's own config turns the rule on for every file of
 * src/main (asked of ESLint for real files, without linting them), and the rule itself, run by
 * ESLint on text at paths of src/main with the TypeScript parser alone (the floors need no type
 * information, and the project's typed program would make this test as slow as the whole lint).
 */
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'
import { layersPlugin } from '../../scripts/eslint-layers.mjs'

const floorsOnly = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['src/main/**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { layers: layersPlugin },
      rules: { 'layers/main-floors': 'error' },
    },
  ],
})

async function floorMessages(filePath: string, source: string): Promise<string[]> {
  const [result] = await floorsOnly.lintText(source, { filePath })
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`)
}

describe('the floors of src/main', () => {
  it('are an error in the project’s own lint config for the files of src/main', async () => {
    const project = new ESLint({ cwd: process.cwd() })
    for (const file of ['src/main/store/lists.ts', 'src/main/jobs/runner.ts', 'src/main/index.ts']) {
      const config: unknown = await project.calculateConfigForFile(file)
      expect(JSON.stringify(config)).toContain('"layers/main-floors":[2]')
    }
  })

  it('refuses the store importing the HTTP client (siblings on one floor)', async () => {
    const source = "import { createApiClient } from '../http/client'\nexport const c = createApiClient\n"
    const messages = await floorMessages('src/main/store/lists.ts', source)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatch(/^layers\/main-floors: src\/main\/store .* may not import http/)
  })

  it('refuses the jobs importing team mode and the ground importing the app', async () => {
    expect(
      await floorMessages('src/main/jobs/targets.ts', "export { TeamLedger } from '../team/team-ledger'\n"),
    ).toHaveLength(1)
    expect(await floorMessages('src/main/base/app-version.ts', "import '../app/app-services'\n")).toHaveLength(1)
  })

  it('lets a room import the floors below it and its own folder', async () => {
    const source =
      "import { AppError } from '../base/app-error'\nimport { JobRunner } from './runner'\nexport { AppError, JobRunner }\n"
    expect(await floorMessages('src/main/jobs/targets.ts', source)).toEqual([])
    expect(
      await floorMessages('src/main/team/account-identity.ts', "export * from '../jobs/ledger/write-ledger'\n"),
    ).toEqual([])
  })
})
