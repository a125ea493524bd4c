/**
 * @module The partner reports page's script: `src/marketplace/reports/report-page-app.ts` as one ES module,
 * `dist/reports/app.js`, which a built server (dist/server, the server package, the Docker image) serves
 * at `/reports/app.js`. A server run from its sources serves the same module transpiled on the fly
 * instead (src/marketplace/reports/report-page.ts; docs/decisions/0102-report-page-build.md). No source
 * map: the page's CSP and routes serve only the script.
 */
import { defineConfig } from 'vite'

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist/reports',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'src/marketplace/reports/report-page-app.ts',
      formats: ['es'],
      fileName: () => 'app.js',
    },
    // Vite keeps whitespace in ES library output (for consumers' tree-shaking); a page's script has no
    // consumer, so it is fully minified.
    rolldownOptions: { output: { minify: true } },
  },
})
