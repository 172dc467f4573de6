// The lint's parser for the <script> of the renderer's .vue files, with type information from
// one TypeScript program for all of them.
//
// typescript-eslint's own way (parserOptions.project) keeps a program whose .vue files hold
// the whole file as read from disk; linting one replaces that file's text with its script, so
// every .vue file made a new program and a new type checker that worked out Vue's types again:
// about 0.6 s a file, 46 s for the renderer's 69, the longest step of the checks in CI. Here
// the program is made once, each .vue file in it holding exactly the text vue-eslint-parser
// will hand over for its script (found by letting vue-eslint-parser parse each file once,
// without types), so one type checker serves every file.
//
// A text that is not in the program as it is (a template expression, which vue-eslint-parser
// parses with this parser too) is parsed without types, as vue-eslint-parser asks for them.
// Should a script ever not be found, the type-aware rules stop the lint with typescript-eslint's
// error that they need type information: nothing is skipped in silence.
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import pluginVue from 'eslint-plugin-vue'
import tseslint from 'typescript-eslint'
import ts from 'typescript'

const root = dirname(dirname(new URL(import.meta.url).pathname))
const TSCONFIG = join(root, 'tsconfig.web.json')
const VUE_ROOT = join(root, 'src', 'renderer')
// The parsers the lint already uses: vue-eslint-parser as eslint-plugin-vue's configs set it,
// typescript-eslint's parser.
const vueParser = [pluginVue.configs['flat/base']]
  .flat()
  .map((c) => c.languageOptions?.parser)
  .find(Boolean)
if (!vueParser) throw new Error("eslint-plugin-vue's flat/base config names no parser")
const tsParser = tseslint.parser
/** Marks the options vue-eslint-parser hands over for a script: it clears `project` for a template's expressions. */
const SCRIPT_MARK = 'vue-script-parser:script'

const withoutTypes = (options) => ({ ...options, project: undefined, projectService: undefined, programs: undefined })

/** The text vue-eslint-parser hands to its script parser for this file, or undefined without a script. */
function scriptTextOf(file, parserOptions) {
  let script
  const capture = {
    parseForESLint(code, options) {
      if (options.project === SCRIPT_MARK && script === undefined) script = code
      return tsParser.parseForESLint(code, withoutTypes(options))
    },
  }
  vueParser.parseForESLint(readFileSync(file, 'utf8'), {
    ...parserOptions,
    filePath: file,
    parser: capture,
    project: SCRIPT_MARK,
  })
  return script
}

function vueFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.vue'))
    .map((e) => resolve(e.parentPath, e.name))
}

let program
/** The program of tsconfig.web.json, each .vue file in it as the text of its script. */
function programFor(parserOptions) {
  if (program) return program
  const config = ts.getParsedCommandLineOfConfigFile(
    TSCONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )
  if (!config) throw new Error(`cannot read ${TSCONFIG}`)
  const scripts = new Map()
  for (const file of vueFiles(VUE_ROOT)) {
    const text = scriptTextOf(file, parserOptions)
    if (text !== undefined) scripts.set(file, text)
  }
  const host = ts.createCompilerHost(config.options, true)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const script = scripts.get(resolve(fileName))
    return script === undefined
      ? getSourceFile(fileName, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(fileName, script, languageVersion, true, ts.ScriptKind.TS)
  }
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => scripts.has(resolve(fileName)) || fileExists(fileName)
  const roots = [...config.fileNames.filter((f) => !f.endsWith('.vue')), ...scripts.keys()]
  // allowNonTsExtensions: a root file named .vue is taken as the TypeScript it holds here (as
  // typescript-eslint's own programs do).
  program = ts.createProgram({ rootNames: roots, options: { ...config.options, allowNonTsExtensions: true }, host })
  return program
}

export const vueScriptParser = {
  meta: { name: 'vue-script-parser' },
  parseForESLint(code, options) {
    const prog = programFor(withoutTypes(options))
    const file = options.filePath === undefined ? undefined : prog.getSourceFile(resolve(options.filePath))
    if (file === undefined || file.text !== code) return tsParser.parseForESLint(code, withoutTypes(options))
    return tsParser.parseForESLint(code, { ...withoutTypes(options), programs: [prog] })
  },
}
