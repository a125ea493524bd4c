import { defineConfig } from 'vitest/config'

// Real Chromium against a real BFF on loopback: one file at a time, generous per-test timeout.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/e2e/**/*.e2e.ts', 'test/docs/**/*.e2e.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
