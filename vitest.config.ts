import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // `@shared/…` as tsconfig.json's paths say (electron.vite.config.ts gives the build the same).
  resolve: { alias: { '@shared': resolve(__dirname, 'src/shared') } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // The renderer's English catalogue, loaded before the window mounts in the app.
    setupFiles: ['tests/helpers/english-catalogue.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: the sandbox servers and clients of parallel files compete for them.
    maxWorkers: 2,
  },
})
