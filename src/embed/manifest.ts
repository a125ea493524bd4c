/**
 * @module The script-tag build's manifest and where its files live: written by config/vite.embed.config.ts, read
 * and served by src/server/embed-assets.ts (what a publisher pastes: src/publisher/snippet.ts). Constants and types only, so the Vite config and the BFF can both
 * import it and no browser bundle is changed by it.
 */

/** Where the BFF serves the build's folder. */
export const EMBED_PATH = '/embed/'
/** The build's folder under the package root. */
export const EMBED_OUT_DIR = 'dist/embed'
export const EMBED_MANIFEST_FILE = 'manifest.json'

/** The versioned bundle's name: `offer-widget.<version>-<content hash>.js`, cacheable forever. */
export function bundleFileName(version: string, contentHash: string): string {
  return `offer-widget.${version}-${contentHash}.js`
}

/**
 * The compatibility line of a version, read as npm's caret range reads it: the leftmost non-zero part is the
 * one that breaks. `1.4.2` is line `v1`; `0.3.1` is line `v0.3` (in 0.x a minor release may break a
 * publisher's page, so a 0.x line is one minor). docs/upgrading.md.
 */
export function embedLine(version: string): string {
  const [major = '0', minor = '0'] = version.split('.')
  return major === '0' ? `v0.${minor}` : `v${major}`
}

/** The bundle's file name under a line's folder: `/embed/<line>/offer-widget.js`. */
const STABLE_FILE = 'offer-widget.js'

/**
 * The path that outlives deploys: the newest bundle of `version`'s line, whatever its hash
 * (`/embed/v0.1/offer-widget.js`). The default snippet names it.
 */
export function stableBundlePath(version: string): string {
  return `${EMBED_PATH}${embedLine(version)}/${STABLE_FILE}`
}

/** A name under `EMBED_PATH` that is a line's stable bundle (`v1/offer-widget.js`, `v0.3/offer-widget.js`); group 1 the line. */
export const STABLE_NAME = /^(v[1-9]\d*|v0\.\d+)\/offer-widget\.js$/

/** Only a name `bundleFileName` gives: `offer-widget.<semver>-<hex hash>.js`. */
export const BUNDLE_NAME = /^offer-widget\.\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?-[0-9a-f]{8,}\.js$/

/** What the BFF needs of the manifest to serve the bundle and write snippets for any origin. */
export interface EmbedBundle {
  version: string
  /** File name inside `EMBED_OUT_DIR`. */
  file: string
  /** `sha384-...` of the file. */
  integrity: string
  /**
   * The loan-application chunk this bundle loads on demand (src/embed/application-host.ts), served and
   * archived with it; absent from builds before it existed.
   */
  application?: { file: string; integrity: string }
}

/** `dist/embed/manifest.json` as the build writes it. */
export interface EmbedManifest extends EmbedBundle {
  /** The snippet for the bundle at `EMBED_PATH` on the page's own origin; the BFF makes absolute ones. */
  loaderScript: string
  loaderSnippet: string
  /** `'sha256-...'` of loaderScript, for a CSP `script-src`. */
  loaderCspHash: string
}
