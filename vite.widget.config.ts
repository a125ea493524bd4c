/**
 * @module The npm build of the React widget: library mode, ESM, `dist/widget/`. React stays external (the
 * host's copy is used); React Query and zod/mini are bundled so the widget's client is private and the
 * package has no peer beyond React. Its CSS travels inside the JS as a string (`styles.css?inline`).
 */
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export const WIDGET_EXTERNALS = ['react', 'react-dom', 'react/jsx-runtime', 'react/jsx-dev-runtime']

export default defineConfig({
  plugins: [react()],
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
      entry: 'src/widget/index.ts',
      formats: ['es'],
      fileName: 'index',
    },
    rolldownOptions: {
      external: (id) => WIDGET_EXTERNALS.includes(id) || /^react-dom\//.test(id),
      // Vite keeps whitespace in ES library output (for consumers' tree-shaking); the widget is one
      // component tree with nothing for a consumer to shake out, so the shipped file is fully minified.
      output: { minify: true },
    },
  },
})
