import { defineConfig } from 'vitest/config'

// Runs after `npm run build`: tests the packed tarball, not the sources.
export default defineConfig({
  test: {
    name: 'package',
    environment: 'node',
    include: ['test/package/**/*.test.ts'],
    testTimeout: 120_000,
  },
})
