import { defineConfig } from 'vitest/config'

// Firefox ESR and WebKit (Debian's packages) against a real BFF on loopback: one engine at a time, so the
// two browsers never share the 2 cores with each other.
export default defineConfig({
  test: {
    name: 'engines',
    environment: 'node',
    include: ['test/e2e/engines/*.e2e.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // As in vitest.e2e.config.ts: a real browser on a shared machine gets one retry; a broken behaviour fails twice.
    retry: 1,
  },
})
