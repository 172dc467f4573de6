// The types of scripts/eslint-layers.mjs, for the test that runs its rule (tests/unit/layers-lint.test.ts).
import type { ESLint } from 'eslint'

export declare const MAIN_FLOORS: readonly (readonly string[])[]
export declare const layersPlugin: ESLint.Plugin
