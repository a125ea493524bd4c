/**
 * @module The script-tag build: `src/embed/auto.ts` as one IIFE with React inside, written as
 * `dist/embed/offer-widget.<version>-<contenthash>.js` (immutable, cacheable forever) plus
 * `dist/embed/manifest.json` `{ version, file, integrity, loaderScript, loaderSnippet, loaderCspHash }`,
 * which the BFF and `npm run snippet` read. The build prints the SRI hash.
 */
import { createHash } from 'node:crypto'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { loaderScript } from './src/embed/loader-snippet.ts'

const OUT_DIR = 'dist/embed'
const BUILT = 'offer-widget.js'
/** Where the BFF serves `dist/embed/` (see src/bff/embed-assets.ts). */
export const EMBED_PATH = '/embed/'

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version

export interface EmbedManifest {
  version: string
  /** File name inside dist/embed/. */
  file: string
  /** `sha384-...` of the file. */
  integrity: string
  /** The snippet for a bundle at `/embed/<file>` on the page's own origin; the BFF makes absolute ones. */
  loaderScript: string
  loaderSnippet: string
  /** `'sha256-...'` of loaderScript, for a CSP `script-src`. */
  loaderCspHash: string
}

function versionedBundle(): Plugin {
  return {
    name: 'offer-widget-versioned-bundle',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir ?? OUT_DIR
      const code = readFileSync(join(dir, BUILT))
      const hash = createHash('sha256').update(code).digest('hex').slice(0, 10)
      const file = `offer-widget.${version}-${hash}.js`
      renameSync(join(dir, BUILT), join(dir, file))
      const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`
      const script = loaderScript({ src: `${EMBED_PATH}${file}`, integrity })
      const manifest: EmbedManifest = {
        version,
        file,
        integrity,
        loaderScript: script,
        loaderSnippet: `<script>${script}</script>`,
        loaderCspHash: `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
      }
      writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
      console.log(`\noffer-widget embed: ${dir}/${file}\n  integrity ${integrity}\n`)
    },
  }
}

/**
 * query-core modules the widget never runs -> src/embed/query-core-stand-ins.ts, keyed by the importing
 * file. The build fails if query-core stops importing them from there (a TanStack upgrade renamed
 * something): check the stand-ins against the new QueryClient, then update this table.
 */
const STAND_INS: Record<string, string> = {
  'queryClient.js': './mutationCache.js',
  'query.js': './infiniteQueryBehavior.js',
}

function queryCoreStandIns(): Plugin {
  const standIns = fileURLToPath(new URL('./src/embed/query-core-stand-ins.ts', import.meta.url))
  const replaced = new Set<string>()
  return {
    name: 'offer-widget-query-core-stand-ins',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer?.includes('/@tanstack/query-core/')) return null
      const file = importer.slice(importer.lastIndexOf('/') + 1)
      if (STAND_INS[file] !== source) return null
      replaced.add(file)
      return standIns
    },
    buildEnd(error) {
      const missing = Object.keys(STAND_INS).filter((file) => !replaced.has(file))
      if (!error && missing.length > 0)
        this.error(
          `query-core stand-ins not applied for ${missing.join(', ')}: see STAND_INS in vite.embed.config.ts`,
        )
    },
  }
}

export default defineConfig({
  plugins: [react(), queryCoreStandIns(), versionedBundle()],
  publicDir: false,
  // React and its dependencies choose their dev build from process.env.NODE_ENV, which no browser defines.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'src/embed/auto.ts',
      formats: ['iife'],
      name: 'OfferWidgetBundle',
      fileName: () => BUILT,
    },
  },
})
