/**
 * @module The playground site (`index.html` and its preview frame -> `dist/site`), served by the BFF at
 * `/`; `npm run playground` is its dev server. public/ (demo page, msw worker) is served by the BFF from public/ itself, so it is not copied into
 * the site. The props-doc plugin reads the widget's exported prop types for the playground's docs.
 */
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompress } from '../scripts/precompress.ts'
import { propsDocPlugin } from '../src/playground/props-doc/props-doc-plugin.ts'

export default defineConfig({
  // The repository's root: index.html is there, and `npm run playground` serves it with hot reload.
  root: join(import.meta.dirname, '..'),
  // Brotli and gzip copies of the hashed assets, served by Accept-Encoding (src/server/start-server.ts).
  plugins: [react(), propsDocPlugin(), precompress()],
  build: {
    outDir: 'dist/site',
    emptyOutDir: true,
    copyPublicDir: false,
    rollupOptions: { input: { main: 'index.html', frame: 'src/playground/frame/index.html' } },
  },
})
