/**
 * @module Serves the script-tag embed. `/embed/<line>/offer-widget.js` (`/embed/v0.1/offer-widget.js`) is the
 * URL the default snippet names and that outlives deploys: the current bundle's bytes, cached 5 minutes
 * (then used once more while revalidated, `ETag` answering 304), so an upgrade reaches every page without
 * a publisher touching it. `/embed/<file>` is the versioned bundle by its content hash (a year of immutable
 * caching), for pages pinned to it with SRI: from `dist/embed/`, else from the archive of earlier bundles
 * (embed-archive.ts) during its retention period while its bytes match their integrity, else a 404 that says why and what to paste instead; never
 * other bytes under a hash. Both are CORS `*` (SRI across origins needs it) and brotli or gzip by
 * `Accept-Encoding`. Also `/embed/manifest.json` (current file, integrity and snippet; revalidated) and
 * `/demo.html` with the loader snippet and a mount point substituted into its placeholders at serve time.
 * Anything else falls through to the next static handler. What a publisher pastes (the
 * snippet, `npm run snippet`) is src/publisher/snippet.ts. Policy and periods: docs/upgrading.md.
 */

import { existsSync, readFileSync, statSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context, MiddlewareHandler } from 'hono'
import { APPLICATION_NAME } from '../embed/application-host.ts'
import {
  BUNDLE_NAME,
  EMBED_OUT_DIR,
  EMBED_PATH,
  type EmbedBundle,
  embedLine,
  STABLE_NAME,
  stableBundlePath,
} from '../embed/manifest.ts'
import { httpError } from '../http/errors.ts'
import { manifestPath, readEmbedManifest, snippetFor } from '../publisher/snippet.ts'
import { FOLLOWS_DEPLOYS, IMMUTABLE, REVALIDATE } from './cache-control.ts'
import type { EmbedArchive } from './embed-archive.ts'
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
  /**
   * Where every bundle served is kept for pinned pages after an upgrade (`DATA_DIR/embed`,
   * `EMBED_RETENTION_DAYS`); without it only the current bundle answers at its hashed URL.
   */
  archive?: EmbedArchive
  /** Where a build that could not be archived is reported; `console.warn` by default. */
  warn?: (message: string) => void
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

/**
 * `readEmbedManifest` once per build rather than once per request: the file is read again only when its
 * modification time or size changes. A stat per request is the price of picking up a rebuild without a
 * restart, which matters because a rebuild empties `dist/embed/`: a manifest cached for the process's life
 * would keep naming a bundle that no longer exists.
 */
function cachedManifestReader(
  root: string,
  onNewBuild: (manifest: EmbedBundle) => void,
): () => EmbedBundle | undefined {
  const path = manifestPath(root)
  let key: string | undefined
  let manifest: EmbedBundle | undefined
  return function currentManifest() {
    const stats = statSync(path, { throwIfNoEntry: false })
    const now = stats ? `${stats.mtimeMs}:${stats.size}` : undefined
    if (now !== key) {
      key = now
      manifest = now === undefined ? undefined : readEmbedManifest(root)
      if (manifest) onNewBuild(manifest)
    }
    return manifest
  }
}

/** Whether `If-None-Match` names `etag` (or `*`). */
function notModified(c: Context, etag: string): boolean {
  const header = c.req.header('if-none-match')
  if (!header) return false
  return header.split(',').some((tag) => {
    const value = tag.trim()
    return value === '*' || value === etag || value.replace(/^W\//, '') === etag.replace(/^W\//, '')
  })
}

/** Why a hashed bundle is not here, and what a publisher pastes instead. */
function missingBundleMessage(
  name: string,
  manifest: EmbedBundle,
  archive: EmbedArchive | undefined,
): string {
  const kept = archive
    ? `it was replaced by a newer build more than ${archive.retentionDays} days ago, or no build this BFF ran made it`
    : 'it was replaced by a newer build (this BFF keeps no earlier bundles: set DATA_DIR to a kept volume), or no build made it'
  return (
    `offer-widget: no bundle ${name.slice(0, 100)} on this BFF: ${kept}. A page pinned to a bundle by its ` +
    'hash must paste the snippet again after an upgrade (npm run snippet -- <this BFF origin>); the ' +
    `default snippet names ${stableBundlePath(manifest.version)}, which follows upgrades. See docs/upgrading.md`
  )
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
 * Archives each build in turn (a rebuild's keep must not race the start's over the same records), and
 * answers archive lookups once the build in flight is archived, so they see what it wrote. A full or
 * read-only folder degrades the archive (a warning, `bff_embed_archive_writable` 0), not the BFF: the
 * current bundle is served from `dist/embed` either way.
 */
function archiveInOrder(archive: EmbedArchive | undefined, outDir: string, warn: (message: string) => void) {
  let keeping: Promise<void> = Promise.resolve()
  return {
    keep(manifest: EmbedBundle) {
      if (!archive) return
      keeping = keeping.then(() =>
        archive.keep(manifest, outDir).catch((error: Error) => warn(error.message)),
      )
    },
    async archived<T>(lookup: (archive: EmbedArchive) => Promise<T>): Promise<T | undefined> {
      if (!archive) return undefined
      await keeping
      return lookup(archive)
    },
  }
}

/**
 * Wraps the static file handler: embed paths and the demo page are answered here, everything else by
 * `fallback` (or the next handler).
 */
// long-function: the script-tag bundle's routes (stable name, pinned builds, the archive) over one archive and manifest reader they share
export function withEmbedAssets(
  fallback: MiddlewareHandler | undefined,
  options: EmbedAssetsOptions,
): MiddlewareHandler {
  const { root, archive, warn = (message: string) => console.warn(message) } = options
  const outDir = join(root, EMBED_OUT_DIR)
  const { keep, archived } = archiveInOrder(archive, outDir, warn)
  // At start, not on a visitor's request: the current bundle's archiving starts before the first one arrives.
  const currentManifest = cachedManifestReader(root, keep)
  currentManifest()
  const sendBundle = async (c: Context, next: () => Promise<void>, file: string, cacheControl: string) => {
    // Its brotli or gzip copy when Accept-Encoding allows; the SRI hash is of the decoded bytes either way.
    const bundle = precompressedStatic({ path: file, cacheControl: () => cacheControl })
    const served = await bundle(c, next)
    return served instanceof Response ? served : undefined
  }
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
          stableSrc: stableBundlePath(manifest.version),
          loaderScript: snippetFor(manifest),
        })
      }
      const line = STABLE_NAME.exec(name)?.[1]
      if (line !== undefined) {
        const current = line === embedLine(manifest.version)
        const bundle = current ? manifest : await archived((a) => a.latestOf(line))
        if (bundle) {
          const etag = `W/"${bundle.file}"`
          c.header('ETag', etag)
          c.header('Cache-Control', FOLLOWS_DEPLOYS)
          // A 304 carries what the full answer would (precompressedStatic adds Vary to that one).
          if (notModified(c, etag)) return c.body(null, 304, { Vary: 'Accept-Encoding' })
          const file = join(current ? outDir : (archive?.dir ?? outDir), bundle.file)
          const served = await sendBundle(c, next, file, FOLLOWS_DEPLOYS)
          if (served) return served
        }
        throw httpError(
          404,
          'not_found',
          `offer-widget: this BFF serves no ${line} bundle; its current one is ${stableBundlePath(manifest.version)} (a new line may change what a page must paste: see docs/upgrading.md)`,
        )
      }
      if (BUNDLE_NAME.test(name) || APPLICATION_NAME.test(name)) {
        const here = join(outDir, name)
        const inBuild = (await stat(here).catch(() => undefined))?.isFile()
        const kept = inBuild
          ? here
          : (await archived((a) => a.find(name))) && join(archive?.dir ?? outDir, name)
        const served = kept ? await sendBundle(c, next, kept, IMMUTABLE) : undefined
        if (served) return served
        // Never another build's bytes under this hash (SRI would refuse them); say where the current line is.
        const version = /^offer-widget\.(\d+\.\d+\.\d+)/.exec(name)?.[1]
        const sameLine = version !== undefined && embedLine(version) === embedLine(manifest.version)
        throw httpError(404, 'not_found', missingBundleMessage(name, manifest, archive), {
          headers: sameLine ? { link: `<${stableBundlePath(manifest.version)}>; rel="latest-version"` } : {},
        })
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
