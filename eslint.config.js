import tseslint from 'typescript-eslint'
import pluginVue from 'eslint-plugin-vue'
import { vueScriptParser } from './scripts/vue-script-parser.mjs'
import { layersPlugin } from './scripts/eslint-layers.mjs'
import eslintConfigPrettier from 'eslint-config-prettier/flat'

/** Promises that nobody awaits, handles or should have awaited. */
const promiseRules = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
}

export default tseslint.config(
  {
    // The build runs beside the lint (scripts/test-all.sh): electron-vite writes its config,
    // bundled, to a file beside it for a moment (electron.vite.config.ts.<time>.mjs), which the
    // lint must not try to read after it is gone.
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '*.config.ts.*.mjs',
      '*.timestamp-*.mjs',
    ],
  },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  // Layout is Prettier's (npm run format, checked in npm test): the style rules that would argue with it are off.
  eslintConfigPrettier,
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
    },
  },
  {
    // With type information: a promise nobody awaits or handles (a dropped one in main is an
    // error nobody sees, or a step that runs after the one it should precede) fails the lint.
    files: ['src/main/**/*.ts', 'src/preload/**/*.ts', 'src/shared/**/*.ts', 'src/sandbox/**/*.ts', 'src/cli/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: promiseRules,
  },
  {
    // The renderer's own program (DOM types, .vue files): a click handler that returns a
    // promise nobody handles loses its error as surely as main does.
    files: ['src/renderer/**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.web.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: promiseRules,
  },
  {
    // The same program for the .vue files' scripts, made once for all of them (see the parser).
    files: ['src/renderer/**/*.vue'],
    languageOptions: { parserOptions: { parser: vueScriptParser, extraFileExtensions: ['.vue'] } },
    rules: promiseRules,
  },
  {
    // What the compiler cannot check is refused: a type assertion (`as T`, `<T>x`; `as const`
    // stays) and a value of type any flowing on. Data that crosses a boundary is validated
    // once (zod, a type guard) where it arrives; only the boundary files below may cast.
    files: ['src/**/*.ts', 'src/**/*.vue'],
    rules: { '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }] },
  },
  {
    // The .vue files' scripts too. The lint's program holds each .vue file as its script alone
    // (scripts/vue-script-parser.mjs), and another file importing from a .vue file gets the
    // `*.vue` shim of env.d.ts: a component is typed by it, but a type a .vue file exported
    // would read as any there, although vue-tsc checks it in full. So no .vue file exports a
    // type: a type that components share lives in a .ts module (components/data-table-column.ts,
    // lib/data/contact-form.ts), typed alike for vue-tsc and for these rules.
    files: ['src/**/*.ts', 'src/**/*.vue'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
    },
  },
  {
    // The same two bans for the code around the app: the tests, the benchmarks, their support
    // and the scripts. A test reads what crosses (a recorded body, a child's answer, a file, JSON
    // printed by the command) with zod or a type guard; a payload a test sends wrong on purpose
    // goes through tests/helpers/raw-payload.ts, which takes unknown. Typed by the two programs
    // that hold these files (tsconfig.json: tests/unit, integration, helpers; tsconfig.e2e.json:
    // tests/e2e, support, scripts, bench). The .mjs/.cjs files there are plain JavaScript.
    files: ['tests/**/*.ts', 'bench/**/*.ts', 'support/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.e2e.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
    },
  },
  {
    // The boundary files: where an untyped message becomes the contract's type (the router,
    // the renderer's bridge and its transport, the store worker, the database drivers).
    files: [
      'src/main/ipc/router.ts',
      'src/renderer/src/data/bridge.ts',
      'src/shared/ipc/call-over.ts',
      'src/main/store/store-worker.ts',
      'src/main/store/database.ts',
      'src/main/team/**/database*.ts',
    ],
    rules: {
      '@typescript-eslint/consistent-type-assertions': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // The electron double is CommonJS on purpose: the built ESM bundle and CommonJS packages
    // must get the same module instance.
    files: ['support/electron-double/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', exports: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The renderer reaches the main process only through window.api, and window.api only
    // through the bridge's typed invoke (src/renderer/src/data/bridge.ts, the contract's Call).
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'electron',
            'keytar',
            'undici',
            'node:*',
            '**/main/**',
            '**/preload/**',
            '**/cli/**',
            '**/sandbox/**',
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'api', message: "Call main through invoke('channel', payload) from bridge.ts." },
      ],
    },
  },
  {
    // The layers (issue 36): shared code is imported by every process, so it imports none of
    // their folders; the words it holds (src/shared/i18n) are what both front ends read.
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', '**/main/**', '**/renderer/**', '**/cli/**', '**/preload/**', '**/sandbox/**'],
              message: 'src/shared imports no process folder: move what both need into src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    // The command line is a second front end over main's core: it words things from
    // src/shared/i18n, never from the window's code.
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/renderer/**', '**/preload/**'],
              message: 'The command line never imports the renderer: the words are in src/shared/i18n.',
            },
          ],
        },
      ],
    },
  },
  {
    // The sandbox models the live service from what it is recorded, documented and published
    // to accept (src/sandbox/operations.ts), never from the app's own endpoint schemas: a
    // stand-in that borrowed the app's rules could never disagree with the app (issue 38).
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/shared/endpoints', '**/shared/endpoints/**', '@shared/endpoints', '@shared/endpoints/**'],
              message:
                "The sandbox checks requests with its own model (src/sandbox/operations.ts), never the app's endpoint table.",
            },
            {
              group: [
                '**/shared/service/validation',
                '**/shared/service/validation.*',
                '@shared/service/validation',
                '@shared/service/validation.*',
              ],
              message:
                "The sandbox checks values with its own rules (src/sandbox/validate.ts), from the spec and the standards, never the app's validators.",
            },
            {
              group: ['**/main/**', '**/renderer/**', '**/cli/**'],
              message: "The sandbox stands for the live service: it imports no part of the app's processes.",
            },
          ],
        },
      ],
    },
  },
  {
    // The sandboxed preload is one small bundle: values only from the IPC contract (types from
    // elsewhere in shared cost nothing at run time and are allowed).
    files: ['src/preload/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/cli/**', '**/sandbox/**'],
              message: 'The preload imports only the IPC contract (src/shared/ipc).',
            },
            {
              group: ['../shared/*', '!../shared/ipc', '@shared/*', '!@shared/ipc'],
              allowTypeImports: true,
              message: 'The preload imports values only from src/shared/ipc.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/src/data/bridge.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // One data layer in the window (issue 51): only data/ (the bridge and the modules that call
    // main), stores/ and composables/ call main. A screen or a part of one asks a store action or
    // a composable; the types data/ defines are free to use.
    files: ['src/renderer/src/views/**', 'src/renderer/src/components/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../data/*', '../../data/*', '../../../data/*'],
              allowTypeImports: true,
              message:
                'Views and components reach main through a store action or a composable, never data/ or the bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    // The floors of src/main (scripts/eslint-layers.mjs): each room imports only rooms below it.
    files: ['src/main/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/main-floors': 'error' },
  },
)
