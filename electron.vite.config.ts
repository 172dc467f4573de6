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
    plugins: [vue({ features: { optionsAPI: false } }), preloadEnglish()],
    resolve: { alias },
    // Minified: electron-vite leaves it off, and the page loads every byte before it shows.
    build: {
      minify: 'esbuild',
      // One stylesheet, linked by the page: a screen's own styles in a file of its own were fetched
      // with its chunk, and a stylesheet added while the page loads holds its load event and the
      // screen's module until it has come (issue 51: the domain list's, window opened -> first row).
      cssCodeSplit: false,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
})
