/**
 * @module The server renderer's build: `src/ssr/render-widget-html.tsx` (the widget and its shadow-root CSS,
 * for React's server renderer) as one ES module for Node at `dist/ssr/render-widget-html.js`. Built by Vite
 * because the widget imports its stylesheet as `styles.css?inline`, which Node cannot load. Self-contained
 * (React, React Query and zod inside): the server package ships it without depending on browser packages.
 */
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  publicDir: false,
  ssr: { noExternal: true, target: 'node' },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    ssr: 'src/ssr/render-widget-html.tsx',
    outDir: 'dist/ssr',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rolldownOptions: { output: { entryFileNames: 'render-widget-html.js' } },
  },
})
