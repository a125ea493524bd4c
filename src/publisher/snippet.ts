/**
 * @module What a publisher pastes to embed the widget from a BFF: the loader snippet (the default one names
 * the bundle's stable URL and follows upgrades; the pinned one carries the bundle's SRI hash), its CSP
 * hashes and a Content-Security-Policy, read from the build's `dist/embed/manifest.json`. Run as a script
 * (`npm run snippet -- <BFF origin>`), it prints them. The BFF serves the bundle itself:
 * src/server/embed-assets.ts. Policy and periods: docs/upgrading.md.
 */

import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { z } from 'zod/mini'
import { httpUrlField } from '../contract/http-url.ts'
import { APPLICATION_NAME } from '../embed/application-host.ts'
import { loaderScript } from '../embed/loader-snippet.ts'
import {
  BUNDLE_NAME,
  EMBED_MANIFEST_FILE,
  EMBED_OUT_DIR,
  EMBED_PATH,
  type EmbedBundle,
  stableBundlePath,
} from '../embed/manifest.ts'
import { mountPointHtml, pasteBlock, reservationCss } from '../embed/publisher-snippet.ts'
import { packageRoot } from '../http/package-root.ts'

export function manifestPath(root: string): string {
  return join(root, EMBED_OUT_DIR, EMBED_MANIFEST_FILE)
}

export function readEmbedManifest(root: string): EmbedBundle | undefined {
  const path = manifestPath(root)
  if (!existsSync(path)) return undefined
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<EmbedBundle>
    if (typeof parsed.file !== 'string' || !BUNDLE_NAME.test(parsed.file)) return undefined
    if (typeof parsed.integrity !== 'string' || typeof parsed.version !== 'string') return undefined
    const { application } = parsed
    const chunk =
      application && APPLICATION_NAME.test(application.file) && typeof application.integrity === 'string'
        ? { application: { file: application.file, integrity: application.integrity } }
        : {}
    return { version: parsed.version, file: parsed.file, integrity: parsed.integrity, ...chunk }
  } catch {
    return undefined
  }
}

/**
 * The loader `<script>` pinned to this build's bundle by its hash, with SRI, served by this BFF at `base`
 * (`''` for the page's own origin). The demo page uses it (it is rewritten at every request).
 */
export function snippetFor(manifest: EmbedBundle, base = ''): string {
  return loaderScript({ src: `${base}${EMBED_PATH}${manifest.file}`, integrity: manifest.integrity })
}

/** The loader `<script>` naming the URL of the bundle's line, which follows upgrades: what publishers paste. */
export function stableSnippetFor(manifest: EmbedBundle, base = ''): string {
  return loaderScript({ src: `${base}${stableBundlePath(manifest.version)}` })
}

/** A loader `<script>` with what a CSP needs to allow it. */
export interface PrintedLoader {
  /** The loader's JavaScript (the text between `<script>` and `</script>`). */
  script: string
  /** `<script>…</script>`, once per page. */
  snippet: string
  /** `'sha256-…'` of `script`: the CSP source that allows this inline snippet. */
  cspHash: string
  /** A complete `Content-Security-Policy` value that lets the widget run from this BFF with this loader. */
  csp: string
}

/**
 * What a publisher pastes for a BFF at one origin: `npm run snippet -- <origin>` prints it. The loader
 * fields are the default one's, which names the bundle's stable URL and follows upgrades; `pinned` is the
 * alternative for a page that wants SRI, valid for this build (and its retention period after an upgrade).
 */
export interface PublisherEmbed extends PrintedLoader {
  /** Everything to paste, in order: the reservation, the mount point (and a commented one with a ZIP), the loader. */
  pasteBlock: string
  /** The `<style>` that reserves the widget's height from the first paint (CLS 0). */
  reservation: string
  /** `'sha256-…'` of the reservation's CSS: the CSP source that allows that inline style. */
  reservationCspHash: string
  /** The mount point with `data-endpoint` set to the BFF and the reservation's class. */
  mountPoint: string
  /** Absolute URL of the stable bundle the default loader names. */
  stableSrc: string
  /** The bundle's SRI hash (`sha384-…`), inside the pinned snippet. */
  integrity: string
  /** The loader pinned to this build's hashed bundle with its SRI hash. */
  pinned: PrintedLoader & { src: string }
}

const bffOrigin = httpUrlField('the BFF origin', { example: 'https://offers.example.com' })

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
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const css = reservationCss()
  const reservationCspHash = sha256(css)
  const printed = (script: string): PrintedLoader => {
    const cspHash = sha256(script)
    const csp = [
      "default-src 'self'",
      `script-src 'self' ${cspHash} ${base}${EMBED_PATH}`,
      `connect-src 'self' ${base}`,
      `img-src 'self' ${base} https:`,
      `style-src 'self' ${reservationCspHash}`,
    ].join('; ')
    return { script, snippet: `<script>${script}</script>`, cspHash, csp }
  }
  const stable = printed(stableSnippetFor(manifest, base))
  return {
    ...stable,
    pasteBlock: pasteBlock({ version: manifest.version, endpoint: base, loader: stable.snippet }),
    reservation: `<style>${css}</style>`,
    reservationCspHash,
    mountPoint: mountPointHtml(base),
    stableSrc: `${base}${stableBundlePath(manifest.version)}`,
    integrity: manifest.integrity,
    pinned: { ...printed(snippetFor(manifest, base)), src: `${base}${EMBED_PATH}${manifest.file}` },
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
  console.log(`The loader names ${embed.stableSrc}: each upgrade of the BFF reaches the page by itself.`)
  console.log(`CSP hash of the loader: ${embed.cspHash}`)
  console.log(`CSP hash of the style:  ${embed.reservationCspHash}`)
  console.log(`Content-Security-Policy: ${embed.csp}`)
  console.log('')
  console.log(
    `Pinned instead, with SRI, to this build (${manifest.file}): after each upgrade of the BFF, run this ` +
      'again and paste the new line within the retention period (EMBED_RETENTION_DAYS, 90 days by default; ' +
      'docs/upgrading.md):',
  )
  console.log(embed.pinned.snippet)
  console.log(`SRI of the bundle:      ${embed.integrity}`)
  console.log(`CSP hash of the pinned loader: ${embed.pinned.cspHash}`)
  console.log(`Content-Security-Policy (pinned): ${embed.pinned.csp}`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printSnippet(process.argv[2] ?? 'https://offers.example.com')
}
