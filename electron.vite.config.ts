import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import type { Plugin } from 'vite'

/**
 * The English catalogue is its own chunk (the window's first script stays small), and main.ts
 * loads it before mounting: a modulepreload hint lets the page fetch it alongside that script
 * instead of after it.
 */
function preloadEnglish(): Plugin {
  return {
    name: 'preload-english-catalogue',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/i18n/locales/en.ts'),
        )
        if (!chunk) return html
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `./${chunk.fileName}` },
            injectTo: 'head',
          },
        ]
      },
    },
  }
}

/**
 * Chunks of a few hundred bytes are merged into others (Rollup's experimentalMinChunkSize): the
 * screens split into their sections (issue 51 point 3) left many tiny modules shared by a few
 * screens, each a file of its own. Rollup merges a small chunk where it adds the fewest bytes
 * loaded without need, and it counts a byte of the window's first script like any other, so it
 * would put there some modules only screens use. Those are kept out by marking them as having
 * side effects (their code is all used anyway): Rollup never merges such a module into a chunk
 * that is loaded where it would not run. The build fails if another one ends up there. Larger
 * sizes merged more (49 files at 2,000 bytes) but had screens load up to 50 KB they do not use.
 */
const MIN_CHUNK_BYTES = 300
const LATER_ONLY = [
  'src/renderer/src/data/stored-whois-privacy.ts',
  'src/renderer/src/composables/useAccountApi.ts',
  'src/renderer/src/composables/useList.ts',
  'src/renderer/src/composables/useRead.ts',
].map((m) => resolve(__dirname, m))
function firstScriptKept(): Plugin {
  return {
    name: 'first-script-kept',
    apply: 'build',
    transform(_code, id) {
      return LATER_ONLY.includes(id) ? { moduleSideEffects: 'no-treeshake' } : null
    },
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry)
      if (entry?.type !== 'chunk' || !entry.facadeModuleId) return
      // The first script is the page's module and what it imports statically, nothing else.
      const imported = new Set<string>()
      const walk = (id: string) => {
        if (imported.has(id)) return
        imported.add(id)
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) walk(next)
      }
      walk(entry.facadeModuleId)
      const merged = Object.keys(entry.modules).filter((id) => !imported.has(id))
      if (merged.length) this.error(`merged into the first script (add to LATER_ONLY): ${merged.join(', ')}`)
    },
  }
}

/**
 * The domain list's chunks are compiled whole when they load (V8's explicit compile hint): compiled lazily, their
 * functions were compiled on first call, which is between the list's arrival and its first paint (issue 54 point 1).
 */
const COMPILED_ON_LOAD = ['src/renderer/src/components/DataTable.vue', 'src/renderer/src/views/DomainsView.vue'].map(
  (m) => resolve(__dirname, m),
)
function compiledOnLoad(): Plugin {
  // A module's id is its file's path, with a query after it for a part of a .vue file.
  const holdsOne = (chunk: { modules: Record<string, unknown> }) =>
    Object.keys(chunk.modules).some((id) => COMPILED_ON_LOAD.includes(id.split('?')[0] ?? id))
  return {
    name: 'compiled-on-load',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && holdsOne(chunk)) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`
      }
    },
  }
}

/** `@shared/…` is src/shared for every process (tsconfig.json's paths): no import climbs folders to reach it. */
const alias = { '@shared': resolve(__dirname, 'src/shared') }

export default defineConfig({
  main: {
    // zod is bundled, not loaded from node_modules: its ES build is some eighty files, and opening
    // them one by one was most of the hosting-admin command's start (issue 52 point 7); bundled, the
    // main process and the command read only the parts they use, in their own chunks.
    plugins: [externalizeDepsPlugin({ exclude: ['zod'] })],
    resolve: { alias },
    // The portfolio store's worker thread is its own entry: main starts it by file (store-worker.ts).
    // The hosting-admin command (src/cli) is another, run by Node without Electron.
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'store-worker': resolve(__dirname, 'src/main/store/worker-entry.ts'),
          cli: resolve(__dirname, 'src/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    // No externalised dependencies: a sandboxed preload can require only 'electron', so whatever
    // it imports is bundled. It imports channel names and the api builder, nothing else.
    // Minified like the renderer: the window loads it before its page, and electron-vite leaves it off.
    build: {
      minify: 'esbuild',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules or require node_modules: one CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // Every component is a <script setup>: Vue's Options API support (data(), methods, mixins)
    // is left out of the bundle, which gives the window's first script room to grow.
    plugins: [vue({ features: { optionsAPI: false } }), preloadEnglish(), firstScriptKept(), compiledOnLoad()],
    resolve: { alias },
    // Minified: electron-vite leaves it off, and the page loads every byte before it shows.
    build: {
      minify: 'esbuild',
      // One stylesheet, linked by the page: a screen's own styles in a file of its own were fetched
      // with its chunk, and a stylesheet added while the page loads holds its load event and the
      // screen's module until it has come (issue 51: the domain list's, window opened -> first row).
      cssCodeSplit: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        output: { experimentalMinChunkSize: MIN_CHUNK_BYTES },
      },
    },
  },
})
