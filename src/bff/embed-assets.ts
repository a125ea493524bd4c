/**
 * @module Serves the script-tag embed: the versioned bundle from `dist/embed/` at `/embed/<file>` (a year
 * of immutable caching, CORS `*` so a publisher page can check its SRI hash, its build-time brotli or gzip
 * copy by `Accept-Encoding`), `/embed/manifest.json`
 * (current file, integrity and snippet; revalidated), and `/demo.html` with the loader snippet and a
 * mount point substituted into its placeholders at serve time, so the page always loads the current
 * bundle. Anything else falls through to the next static handler. Run as a script, it prints what a
 * publisher pastes for a BFF at another origin: the snippet, its SRI and CSP hashes and a CSP line.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Context, MiddlewareHandler } from 'hono'
import { z } from 'zod/mini'
import { loaderScript } from '../embed/loader-snippet.ts'
import {
  BUNDLE_NAME,
  EMBED_MANIFEST_FILE,
  EMBED_OUT_DIR,
  EMBED_PATH,
  type EmbedBundle,
} from '../embed/manifest.ts'
import { mountPointHtml, pasteBlock, reservationCss } from '../embed/publisher-snippet.ts'
import { httpError } from '../http/errors.ts'
import { packageRoot } from '../package-root.ts'
import { IMMUTABLE, REVALIDATE } from './cache-control.ts'
import { precompressedStatic } from './precompressed-static.ts'

export const DEMO_PATH = '/demo.html'
export const AUTO_PLACEHOLDER = '<!-- offer-widget:auto -->'

export interface EmbedAssetsOptions {
  /** Directory holding `dist/embed/` and `public/`. */
  root: string
  /**
   * `/demo.html?ssr=1`: the widget rendered on the server for this visitor (HTML of its mount point), or
   * `undefined` to serve the client-rendered page.
   */
  renderDemoWidget?: (c: Context, params: DemoParams) => Promise<string | undefined>
}

/** The demo page's query parameters that passed their patterns. */
export interface DemoParams {
  zip?: string
  theme?: 'light' | 'dark'
  form?: 'auto' | 'always' | 'never'
}

/** Demo page query parameters that become data attributes; each value must match its pattern. */
const DEMO_PARAMS: Record<string, RegExp> = {
  zip: /^\d{5}$/,
  theme: /^(light|dark)$/,
  form: /^(auto|always|never)$/,
}

function manifestPath(root: string): string {
  return join(root, EMBED_OUT_DIR, EMBED_MANIFEST_FILE)
}

export function readEmbedManifest(root: string): EmbedBundle | undefined {
  const path = manifestPath(root)
  if (!existsSync(path)) return undefined
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<EmbedBundle>
    if (typeof parsed.file !== 'string' || !BUNDLE_NAME.test(parsed.file)) return undefined
    if (typeof parsed.integrity !== 'string' || typeof parsed.version !== 'string') return undefined
    return { version: parsed.version, file: parsed.file, integrity: parsed.integrity }
  } catch {
    return undefined
  }
}

/**
 * `readEmbedManifest` once per build rather than once per request: the file is read again only when its
 * modification time or size changes. A stat per request is the price of picking up a rebuild without a
 * restart, which matters because a rebuild empties `dist/embed/`: a manifest cached for the process's life
 * would keep naming a bundle that no longer exists.
 */
function cachedManifestReader(root: string): () => EmbedBundle | undefined {
  const path = manifestPath(root)
  let key: string | undefined
  let manifest: EmbedBundle | undefined
  return function currentManifest() {
    const stats = statSync(path, { throwIfNoEntry: false })
    const now = stats ? `${stats.mtimeMs}:${stats.size}` : undefined
    if (now !== key) {
      key = now
      manifest = now === undefined ? undefined : readEmbedManifest(root)
    }
    return manifest
  }
}

/** The loader `<script>` for a bundle served by this BFF at `base` (`''` for the page's own origin). */
export function snippetFor(manifest: EmbedBundle, base = ''): string {
  return loaderScript({ src: `${base}${EMBED_PATH}${manifest.file}`, integrity: manifest.integrity })
}

function demoParams(c: Context): DemoParams {
  const params: Record<string, string> = {}
  for (const name of ['zip', 'theme', 'form'] as const) {
    const value = c.req.query(name)
    if (value !== undefined && DEMO_PARAMS[name]?.test(value)) params[name] = value
  }
  return params as DemoParams
}

function demoMountPoint(params: DemoParams): string {
  const attributes = ['data-offer-widget', 'data-endpoint=""']
  if (params.zip) attributes.push(`data-zip-code="${params.zip}"`)
  if (params.theme) attributes.push(`data-theme="${params.theme}"`)
  if (params.form) attributes.push(`data-form="${params.form}"`)
  return `<div id="offer-widget" ${attributes.join(' ')}></div>`
}

function demoPage(html: string, manifest: EmbedBundle, mountPoint: string): string {
  const snippet = `<script>${snippetFor(manifest)}</script>`
  return html.replace(AUTO_PLACEHOLDER, `${mountPoint}\n            ${snippet}`)
}

/**
 * Wraps the static file handler: embed paths and the demo page are answered here, everything else by
 * `fallback` (or the next handler).
 */
export function withEmbedAssets(
  fallback: MiddlewareHandler | undefined,
  options: EmbedAssetsOptions,
): MiddlewareHandler {
  const { root } = options
  const currentManifest = cachedManifestReader(root)
  return async function embedAssets(c, next) {
    const path = c.req.path
    const manifest = currentManifest()
    if (manifest && path.startsWith(EMBED_PATH)) {
      const name = path.slice(EMBED_PATH.length)
      c.header('Access-Control-Allow-Origin', '*')
      if (name === 'manifest.json') {
        c.header('Cache-Control', REVALIDATE)
        return c.json({
          ...manifest,
          src: `${EMBED_PATH}${manifest.file}`,
          loaderScript: snippetFor(manifest),
        })
      }
      const file = join(root, EMBED_OUT_DIR, name)
      if (BUNDLE_NAME.test(name) && existsSync(file)) {
        // Its brotli or gzip copy when Accept-Encoding allows; the SRI hash is of the decoded bytes either way.
        const bundle = precompressedStatic({ path: file, cacheControl: () => IMMUTABLE })
        const served = await bundle(c, next)
        if (served instanceof Response) return served
      }
      throw httpError(404, 'not_found', `No embed file ${name.slice(0, 100)}`)
    }
    if (manifest && path === DEMO_PATH) {
      const file = join(root, 'public', 'demo.html')
      const html = existsSync(file) ? readFileSync(file, 'utf8') : ''
      if (html.includes(AUTO_PLACEHOLDER)) {
        const params = demoParams(c)
        const rendered =
          c.req.query('ssr') === '1' && options.renderDemoWidget
            ? await options.renderDemoWidget(c, params)
            : undefined
        // A page holding a search made for this visitor is theirs alone.
        c.header('Cache-Control', rendered ? 'no-store' : REVALIDATE)
        return c.html(demoPage(html, manifest, rendered ?? demoMountPoint(params)))
      }
    }
    return fallback ? fallback(c, next) : next()
  }
}

/** What a publisher pastes for a BFF at one origin: `npm run snippet -- <origin>` prints it. */
export interface PublisherEmbed {
  /** Everything to paste, in order: the reservation, the mount point (and a commented one with a ZIP), the loader. */
  pasteBlock: string
  /** The `<style>` that reserves the widget's height from the first paint (CLS 0). */
  reservation: string
  /** `'sha256-…'` of the reservation's CSS: the CSP source that allows that inline style. */
  reservationCspHash: string
  /** The mount point with `data-endpoint` set to the BFF and the reservation's class. */
  mountPoint: string
  /** The loader's JavaScript (the text between `<script>` and `</script>`). */
  script: string
  /** `<script>…</script>`, once per page. */
  snippet: string
  /** The bundle's SRI hash (`sha384-…`), already inside the snippet. */
  integrity: string
  /** `'sha256-…'` of `script`: the CSP source that allows this inline snippet. */
  cspHash: string
  /** A complete `Content-Security-Policy` value that lets the widget run from this BFF. */
  csp: string
}

const bffOrigin = z.url({
  protocol: /^https?$/,
  error: 'the BFF origin must be an absolute http(s) URL such as https://offers.example.com',
})

/**
 * The snippet, its hashes and a CSP for a page embedding the widget from the BFF at `origin` (any path or
 * trailing slash is dropped: the bundle and the API live at the origin's root). The CSP allows exactly
 * what the widget does: the inline loader by its hash and the bundle from the BFF's `/embed/`
 * (`script-src`), its API calls (`connect-src`), and logos and impression pixels (`img-src`: the rate
 * table's image and pixel URLs may be on any https host, docs/offer-search-api.md, plus the BFF's own
 * pixels and sandbox logos). The widget's own styles need nothing (it adopts a constructed stylesheet);
 * `style-src` allows the printed height reservation by its hash.
 */
export function publisherEmbed(manifest: EmbedBundle, origin: string): PublisherEmbed {
  const base = new URL(bffOrigin.parse(origin)).origin
  const script = snippetFor(manifest, base)
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const cspHash = sha256(script)
  const css = reservationCss()
  const reservationCspHash = sha256(css)
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${cspHash} ${base}${EMBED_PATH}`,
    `connect-src 'self' ${base}`,
    `img-src 'self' ${base} https:`,
    `style-src 'self' ${reservationCspHash}`,
  ].join('; ')
  const snippet = `<script>${script}</script>`
  return {
    pasteBlock: pasteBlock({ version: manifest.version, endpoint: base, loader: snippet }),
    reservation: `<style>${css}</style>`,
    reservationCspHash,
    mountPoint: mountPointHtml(base),
    script,
    snippet,
    integrity: manifest.integrity,
    cspHash,
    csp,
  }
}

/** `npm run snippet -- https://offers.example.com`: the snippet, its hashes and a CSP for the current build. */
function printSnippet(origin: string): void {
  const manifest = readEmbedManifest(packageRoot(import.meta.url))
  if (!manifest) {
    console.error('snippet: no dist/embed/manifest.json; run npm run build first')
    process.exit(1)
  }
  let embed: PublisherEmbed
  try {
    embed = publisherEmbed(manifest, origin)
  } catch (error) {
    const message = error instanceof z.core.$ZodError ? (error.issues[0]?.message ?? '') : String(error)
    console.error(`snippet: ${JSON.stringify(origin)}: ${message}`)
    process.exit(2)
  }
  console.log(embed.pasteBlock)
  console.log('')
  console.log(`SRI of the bundle:      ${embed.integrity}`)
  console.log(`CSP hash of the loader: ${embed.cspHash}`)
  console.log(`CSP hash of the style:  ${embed.reservationCspHash}`)
  console.log(`Content-Security-Policy: ${embed.csp}`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printSnippet(process.argv[2] ?? 'https://offers.example.com')
}
