/**
 * @module The playground site (`index.html` -> `dist/site`), served by the BFF at `/`. public/ (demo
 * page, msw worker) is served by the BFF from public/ itself, so it is not copied into the site.
 */
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/site', emptyOutDir: true, copyPublicDir: false },
})
