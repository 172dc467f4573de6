import { defineConfig } from 'vitest/config'

export default defineConfig({
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
