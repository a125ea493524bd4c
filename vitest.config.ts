import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// Two projects: server-side code in Node, browser code (widget, embed, playground) in jsdom.
const browserDirs = [
  'test/widget/**/*.test.{ts,tsx}',
  'test/embed/**/*.test.{ts,tsx}',
  'test/playground/**/*.test.{ts,tsx}',
]

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [...browserDirs, 'test/e2e/**', 'test/package/**', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: browserDirs,
        },
      },
    ],
  },
})
