import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { skipSummary } from './test/support/skip-summary.ts'

// Server-side code in Node, browser code (widget, embed, playground) in jsdom, and the widget once more on
// React 18 (the published component supports React 18 and 19).
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
    ],
  },
})
