/**
 * @module The script-tag build: `src/embed/auto.ts` as one IIFE with React inside, written as
 * `dist/embed/offer-widget.<version>-<contenthash>.js` (immutable, cacheable forever) plus
 * `dist/embed/manifest.json` `{ version, file, integrity, loaderScript, loaderSnippet, loaderCspHash }`,
 * which the BFF and `npm run snippet` read, and the bundle's brotli and gzip copies beside it. The build
 * prints the SRI hash (of the decoded bytes, so it holds whichever encoding is served).
 */
import { createHash } from 'node:crypto'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { type Alias, build, defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite'
import { precompress } from '../scripts/precompress.ts'
import { APPLICATION_HOST, applicationFileName } from '../src/embed/application-host.ts'
import { loaderScript } from '../src/embed/loader-snippet.ts'
import {
  bundleFileName,
  EMBED_MANIFEST_FILE,
  EMBED_OUT_DIR,
  EMBED_PATH,
  type EmbedManifest,
} from '../src/embed/manifest.ts'

const BUILT = 'offer-widget.js'

/**
 * The script tag carries its own React, invisible to the page, so its major is ours to choose: React 18.3
 * (the `react18` / `react-dom18` npm aliases) is about 22 KiB gzip smaller than 19, bytes every visitor of
 * every publisher page pays for. The server renderer (vite.ssr.config.ts) uses the same aliases, so server
 * HTML and hydration come from one React. Revisit when the widget needs a React 19 feature or React 18
 * leaves security support. The npm component is untouched: React 18 and 19 stay its peers.
 */
export const REACT_18_ALIASES: Alias[] = [
  { find: /^react$/, replacement: 'react18' },
  { find: /^react\/(.*)$/, replacement: 'react18/$1' },
  { find: /^react-dom$/, replacement: 'react-dom18' },
  { find: /^react-dom\/(.*)$/, replacement: 'react-dom18/$1' },
]
/**
 * V8's explicit compile hint (Chrome 136+; a plain comment elsewhere): compile every function of the file
 * eagerly, on the thread that streams the script in, instead of each one on the main thread on its first
 * call. Measured in Chromium without DevTools (bench/embed.bench.ts's mount page, 20 cold loads a sample):
 * a task of 50 ms or more from mount() to search complete in 4 of 80 loads with the hint, 9 of 60 without; the
 * API is ready about 20 ms later with it (eager compilation of functions the first render never calls).
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad'

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version

const sri = (code: string | Buffer) => `sha384-${createHash('sha384').update(code).digest('base64')}`
const contentHash = (code: string | Buffer) => createHash('sha256').update(code).digest('hex').slice(0, 10)

/** The loan-application chunk as built for this bundle: what the bundle's loader names and checks. */
interface ApplicationChunk {
  file: string
  integrity: string
  code: string
}

/**
 * The loan application, a chunk of its own (docs/decisions/0107-application-chunk.md): an IIFE built before
 * the bundle, from src/embed/application-chunk.ts, whose `react` and JSX runtime are the bundle's, handed
 * over at load (src/embed/application-host.ts). Its file name and SRI hash reach the bundle as the constant
 * `__OFFER_WIDGET_APPLICATION__`, and the file is written beside the bundle (and precompressed with it). The
 * IIFE format has no code splitting, hence the second build rather than a dynamic import.
 */
async function buildApplicationChunk(): Promise<ApplicationChunk> {
  const output = (await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: {
        entry: fileURLToPath(new URL('../src/embed/application-chunk.ts', import.meta.url)),
        formats: ['iife'],
        name: 'OfferWidgetApplication',
      },
      rolldownOptions: {
        external: ['react', 'react/jsx-runtime'],
        output: {
          globals: {
            react: `${APPLICATION_HOST}.react`,
            'react/jsx-runtime': `${APPLICATION_HOST}.jsx`,
          },
        },
      },
    },
  })) as Rolldown.RolldownOutput[]
  const code = output[0]?.output.find((o) => o.type === 'chunk')?.code
  if (!code) throw new Error('offer-widget embed: the loan-application chunk built no code')
  return { file: applicationFileName(version, contentHash(code)), integrity: sri(code), code }
}

/** Writes the application chunk beside the bundle. */
function applicationFile(chunk: ApplicationChunk): Plugin {
  return {
    name: 'offer-widget-application-chunk',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: chunk.file, source: chunk.code })
    },
  }
}

function versionedBundle(chunk: ApplicationChunk): Plugin {
  return {
    name: 'offer-widget-versioned-bundle',
    apply: 'build',
    generateBundle(_options, bundle) {
      // After minification, which drops comments: the hint must be the file's first line.
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') output.code = `${COMPILE_HINT}\n${output.code}`
      }
    },
    writeBundle(options) {
      const dir = options.dir ?? EMBED_OUT_DIR
      const code = readFileSync(join(dir, BUILT))
      const file = bundleFileName(version, contentHash(code))
      renameSync(join(dir, BUILT), join(dir, file))
      const integrity = sri(code)
      const script = loaderScript({ src: `${EMBED_PATH}${file}`, integrity })
      const manifest: EmbedManifest = {
        version,
        file,
        integrity,
        loaderScript: script,
        loaderSnippet: `<script>${script}</script>`,
        loaderCspHash: `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
        application: { file: chunk.file, integrity: chunk.integrity },
      }
      writeFileSync(join(dir, EMBED_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
      console.log(`\noffer-widget embed: ${dir}/${file}\n  integrity ${integrity}\n`)
    },
  }
}

/** The widget's dynamic import of its application becomes the chunk's script-tag loader. */
export const APPLICATION_LOADER_ALIAS: Alias = {
  find: /^\.\/load-application\.ts$/,
  replacement: fileURLToPath(new URL('../src/embed/load-application-chunk.ts', import.meta.url)),
}

export default defineConfig(async (): Promise<UserConfig> => {
  const application = await buildApplicationChunk()
  return {
    // precompress after the bundle has its hashed name: `.br` and `.gz` beside it, served by Accept-Encoding.
    plugins: [react(), applicationFile(application), versionedBundle(application), precompress()],
    resolve: {
      alias: [...REACT_18_ALIASES, APPLICATION_LOADER_ALIAS],
    },
    publicDir: false,
    // React and its dependencies choose their dev build from process.env.NODE_ENV, which no browser defines.
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      __OFFER_WIDGET_APPLICATION__: JSON.stringify({
        file: application.file,
        integrity: application.integrity,
      }),
    },
    build: {
      outDir: EMBED_OUT_DIR,
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
  }
})
