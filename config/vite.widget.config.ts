/**
 * @module The npm build of the React widget: library mode, ESM, `dist/widget/`. React is external (a peer:
 * the host's copy is used); TanStack Query and zod are external too, installed as the widget package's
 * own dependencies (scripts/pack.ts), so a host that already has them does not ship them twice. The
 * widget's QueryClient stays private either way: it is created by the widget, never read from context.
 * Its CSS travels inside the JS as a string (`styles.css?inline`). Four entries: the component
 * (`index.js`, a client boundary), the `<offer-widget>` element (`element.js`), the label packs
 * (`labels.js`, plain data a server component can import) and the script-tag bundle's loader (`loader.js`:
 * no React, no widget, only a type import of the bundle's API).
 */
import { readFileSync } from 'node:fs'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { isolateCss } from '../scripts/isolate-css.ts'

export const WIDGET_EXTERNALS = ['react', 'react-dom', 'react/jsx-runtime', 'react/jsx-dev-runtime']
/** Dependencies of the widget package, imported by name (subpaths included, e.g. `zod/mini`). */
const DEPENDENCY_PACKAGES = /^(?:@tanstack\/(?:react-query|query-core)|zod)(?:\/|$)/

/**
 * The stylesheets `<OfferWidget>` injects (its own, and its loan application's), made page-proof for the light DOM (scripts/isolate-css.ts): the
 * npm component renders among the host app's elements and under its CSS, unlike the script tag's shadow
 * root. The same text ships as the package's `styles.css` (scripts/pack.ts).
 */
function isolatedWidgetCss(): Plugin {
  return {
    name: 'offer-widget-isolated-css',
    enforce: 'pre',
    load(id) {
      const [file, query] = id.split('?')
      const ours = ['/src/widget/styles.css', '/src/widget/loan-application/loan-application.css']
      if (query !== 'inline' || !file || !ours.some((name) => file.endsWith(name))) return undefined
      return isolateCss(readFileSync(file, 'utf8'))
    },
  }
}

export default defineConfig({
  plugins: [isolatedWidgetCss(), react()],
  // public/ holds the demo site's files, not the package's.
  publicDir: false,
  // Bundled dependencies guard dev-only code with process.env.NODE_ENV; the published file is the
  // production build (no host bundler is assumed to replace it).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: true,
    lib: {
      entry: {
        index: 'src/widget/index.ts',
        element: 'src/embed/element.ts',
        labels: 'src/widget/labels-entry.ts',
        loader: 'src/embed/load-offer-widget.ts',
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      external: (id) =>
        WIDGET_EXTERNALS.includes(id) || /^react-dom\//.test(id) || DEPENDENCY_PACKAGES.test(id),
      // Vite keeps whitespace in ES library output (for consumers' tree-shaking); the widget is one
      // component tree with nothing for a consumer to shake out, so the shipped file is fully minified.
      // Rolldown keeps `'use client'` (src/widget/index.ts's first statement) at the top of index.js, which
      // Next.js needs to treat the package as a client boundary; scripts/pack.ts refuses a build without it.
      output: { minify: true },
    },
  },
})
