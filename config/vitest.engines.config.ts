import { defineConfig } from 'vitest/config'
import { skipSummary } from '../test/support/skip-summary.ts'

// Firefox ESR and WebKit (Debian's packages) against a real BFF on loopback. The two engines run side by
// side: a check mostly waits on the sandbox's partners (about 5 s a search), and both together used about a
// fifth of one core when they ran one after the other (23 s of CPU in 120 s).
export default defineConfig({
  // Skip notices (the on-demand screenshot widths) as one line after the summary.
  plugins: [skipSummary()],
  test: {
    name: 'engines',
    environment: 'node',
    include: ['test/e2e/engines/*.e2e.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // As in vitest.e2e.config.ts: a real browser on a shared machine gets one retry; a broken behaviour fails twice.
    retry: 1,
  },
})
