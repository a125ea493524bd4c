/**
 * @module Dead-code check (`npm run check:dead`, run by `.ci/run`): every file, export and dependency must
 * be reached from an entry point: the published packages' entries (see `scripts/pack.ts`), the CLIs and
 * servers, the playground, the build scripts, benchmarks and tests (found by knip's vite/vitest plugins).
 */
import type { KnipConfig } from 'knip'

const config: KnipConfig = {
  entry: [
    // Widget package: `.`, `./element`, `./labels`, `./loader` and the script tag are the lib entries of
    // vite.widget.config.ts and vite.embed.config.ts, which knip's Vite plugin reads (as it reads the reports
    // page's script in vite.reports.config.ts); the server renderer of the widget's HTML (vite.ssr.config.ts)
    // is not.
    'src/ssr/render-widget-html.tsx',
    // Server package subpaths (scripts/package-entries.ts) and what runs: servers, CLIs.
    'src/server/index.ts',
    'src/bff/index.ts',
    'src/marketplace/index.ts',
    'src/ledger/index.ts',
    'src/sandbox/index.ts',
    'src/partner-kit/index.ts',
    'src/partner-kit/cli.ts',
    'scripts/*.ts',
    'bench/*.bench.ts',
  ],
  // The builds (config/) and the test runs (the root's vitest.config.ts), docs/development.md.
  vite: { config: ['config/vite.*.config.ts'] },
  vitest: { config: ['vitest.config.ts'] },
  // The Next.js app the e2e suite installs and builds in a scratch folder, with its own dependencies.
  ignore: ['test/e2e/fixtures/next-app/**'],
  project: ['src/**/*.{ts,tsx,js}', 'scripts/**/*.ts', 'bench/**/*.ts', 'bin/**/*.js', 'test/**/*.{ts,tsx}'],
  // The machine's openssl makes the throwaway CA of the https partner tests (test/support/local-https.ts).
  ignoreBinaries: ['openssl'],
  ignoreDependencies: [
    // Command-line tools run by `scripts/check-packages.ts` through npx, and drizzle-kit, which writes `drizzle/`.
    '@arethetypeswrong/cli',
    'publint',
    'drizzle-kit',
    // npm aliases the script-tag and SSR builds resolve `react` / `react-dom` to (vite.embed.config.ts).
    'react18',
    'react-dom18',
    // Runtimes whose binaries test/runtimes/ spawns from node_modules/.bin.
    'bun',
    'deno',
    'workerd',
  ],
}

export default config
