import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { skipSummary } from './test/support/skip-summary.ts'

// Every test run of the repository, one project each:
// - `npm test`: `node` (server-side code in Node), `dom` (browser code: widget, embed, playground, in jsdom)
//   and `react18` (the widget once more on React 18: the published component supports React 18 and 19);
// - `npm run test:e2e`: `e2e`, real Chromium against real servers on loopback;
// - `npm run test:engines`: `engines`, Firefox ESR and WebKit the same way;
// - `npm run test:package`: `package`, the built tarballs and the runtime layout (after build and pack).
// `vitest run` alone runs the first three; the others are named (`--project e2e`).
const browserDirs = [
  'test/widget/**/*.test.{ts,tsx}',
  'test/embed/**/*.test.{ts,tsx}',
  'test/playground/**/*.test.{ts,tsx}',
]

const react18 = resolve('test/react18/node_modules')
const react18Project: TestProjectInlineConfiguration[] = existsSync(`${react18}/react/package.json`)
  ? [
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^react$/, replacement: `${react18}/react/index.js` },
            { find: /^react\/(.*)$/, replacement: `${react18}/react/$1.js` },
            { find: /^react-dom$/, replacement: `${react18}/react-dom/index.js` },
            { find: /^react-dom\/(.*)$/, replacement: `${react18}/react-dom/$1.js` },
          ],
        },
        test: {
          name: 'react18',
          environment: 'jsdom',
          include: ['test/widget/react-versions.test.tsx'],
          env: { EXPECTED_REACT_MAJOR: '18' },
          // Inlined so its own `react` imports go through the alias: one React per test.
          server: { deps: { inline: [/@tanstack\/react-query/] } },
        },
      },
    ]
  : []
// Said once, in the run's "Skipped:" line, not each time the config is read.
const configSkips =
  react18Project.length === 0
    ? [
        {
          tests: 'the React 18 project (test/widget/react-versions.test.tsx on React 18)',
          reason: 'test/react18 is not installed (run npm ci --prefix test/react18; .ci/run does)',
          beside: 'dom',
        },
      ]
    : []

export default defineConfig({
  plugins: [react(), skipSummary(configSkips)],
  test: {
    // One worker per core, not Vitest's default of one fewer: most test time is spent waiting on loopback
    // servers, PGlite and child processes, so on a 2-core machine the default runs the files one at a time.
    maxWorkers: availableParallelism(),
    // Every project: a test fails on an unhandled msw request or a React act() warning.
    setupFiles: ['test/support/fail-on-warnings.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // Hooks here start whole servers (PGlite from its template, in its thread): 2-5 s alone, past 10 s
          // seen in a full run on two cores. A hook that hangs still fails, at 30 s.
          hookTimeout: 30_000,
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [
            ...browserDirs,
            'test/e2e/**',
            'test/package/**',
            'test/docs/**',
            'test/react18/**',
            '**/node_modules/**',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: browserDirs,
          env: { EXPECTED_REACT_MAJOR: '19' },
        },
      },
      ...react18Project,
      // Real Chromium against a real BFF on loopback: one file at a time, generous per-test timeout.
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.ts', 'test/docs/**/*.e2e.ts'],
          // Firefox and WebKit have their own run, the `engines` project.
          exclude: [...configDefaults.exclude, 'test/e2e/engines/**'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One retry for a real browser on a shared 2-core machine: a behaviour that is broken fails twice.
          // Seen once: the playground's axe run caught one violation in the disclaimers story that did not recur.
          retry: 1,
        },
      },
      // Firefox ESR and WebKit (Debian's packages) against a real BFF on loopback. The two engines run side by
      // side: a check mostly waits on the sandbox's partners (about 5 s a search), and both together used about
      // a fifth of one core when they ran one after the other (23 s of CPU in 120 s).
      {
        test: {
          name: 'engines',
          environment: 'node',
          include: ['test/e2e/engines/*.e2e.ts'],
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // As in e2e: a real browser on a shared machine gets one retry; a broken behaviour fails twice.
          retry: 1,
        },
      },
      // Runs after `npm run build` and `npm run pack`: tests the tarballs and the runtime layout, not the sources.
      {
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
      },
    ],
  },
})
