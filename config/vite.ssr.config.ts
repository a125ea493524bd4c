/**
 * @module The server renderer's build: `src/ssr/render-widget-html.tsx` (the widget and its shadow-root CSS,
 * for React's server renderer) as one ES module for Node at `dist/ssr/render-widget-html.js`. Built by Vite
 * because the widget imports its stylesheet as `styles.css?inline`, which Node cannot load. Self-contained
 * (React, React Query and zod inside): the server package ships it without depending on browser packages.
 * Its React is the script-tag bundle's (18.3, `REACT_18_ALIASES`): the bundle hydrates what it renders.
 */
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { REACT_18_ALIASES } from './vite.embed.config.ts'

export default defineConfig({
  plugins: [react()],
  resolve: { alias: REACT_18_ALIASES },
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
