import { defineConfig } from 'vitest/config'

// Runs after `npm run build` and `npm run pack`: tests the tarballs and the runtime layout, not the sources.
export default defineConfig({
  test: {
    name: 'package',
    environment: 'node',
    // README's blocks run here too: they need the build (compiled server, script-tag bundle).
    include: ['test/package/**/*.test.ts', 'test/docs/**/*.test.{ts,tsx}'],
    testTimeout: 120_000,
    // Scratch installs and their removal (PGlite alone is 27 MB) take a while on a 2-core machine.
    hookTimeout: 300_000,
    // One scratch install at a time: parallel npm installs fight over the cache and the two cores.
    fileParallelism: false,
  },
})
