/**
 * @module The BFF's embed assets: the versioned bundle (immutable, CORS), the manifest, and the demo page
 * with the current snippet substituted into its placeholder; everything else falls through. The snippet
 * command's output for a BFF on another origin: snippet, SRI, CSP hash and CSP line.
 */
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { Registry } from 'prom-client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { precompressDirectory } from '../../scripts/precompress.ts'
import { publisherEmbed, snippetFor, stableSnippetFor } from '../../src/publisher/snippet.ts'
import { createEmbedArchive, type EmbedArchive } from '../../src/server/embed-archive.ts'
import { registerEmbedArchiveMetric } from '../../src/server/embed-archive-metric.ts'
import { AUTO_PLACEHOLDER, withEmbedAssets } from '../../src/server/embed-assets.ts'

const FILE = 'offer-widget.0.1.0-0123456789.js'
const MANIFEST = { version: '0.1.0', file: FILE, integrity: 'sha384-abc' }

function root(withManifest = true) {
  const dir = mkdtempSync(join(tmpdir(), 'embed-assets-'))
  mkdirSync(join(dir, 'dist/embed'), { recursive: true })
  mkdirSync(join(dir, 'public'))
  if (withManifest) writeFileSync(join(dir, 'dist/embed/manifest.json'), JSON.stringify(MANIFEST))
  writeFileSync(join(dir, 'dist/embed', FILE), 'window.OfferWidget={version:"0.1.0"}')
  writeFileSync(join(dir, 'public/demo.html'), `<!doctype html><main>${AUTO_PLACEHOLDER}</main>`)
  return dir
}

function app(dir: string, archive?: EmbedArchive) {
  const hono = new Hono()
  hono.get(
    '*',
    withEmbedAssets(async (c) => c.text('fallback'), { root: dir, ...(archive ? { archive } : {}) }),
  )
  return hono
}

/** What `npm run build` does to `dist/embed/`: emptied, then the new bundle and its manifest written. */
/** A root whose bundle is big enough to compress, with the build's brotli and gzip copies beside it. */
function precompressedBundle() {
  const dir = root()
  const bundle = Buffer.from(
    `window.OfferWidget={offers:${JSON.stringify(Array.from({ length: 300 }, String))}}`,
  )
  writeFileSync(join(dir, 'dist/embed', FILE), bundle)
  precompressDirectory(join(dir, 'dist/embed'))
  return { hono: app(dir), bundle }
}

/** `Accept-Encoding`, the encoding served for it, and how to read the bytes back. */
const ENCODINGS = [
  ['gzip, deflate, br', 'br', brotliDecompressSync],
  ['gzip', 'gzip', gunzipSync],
  ['', null, (b: Buffer) => b],
] as const

function rebuild(dir: string, bundle: { version: string; file: string; integrity: string }, code: string) {
  const out = join(dir, 'dist/embed')
  rmSync(out, { recursive: true })
  mkdirSync(out)
  writeFileSync(join(out, bundle.file), code)
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(bundle))
  // Another modification time than the previous manifest's, whatever the file system's resolution.
  mtime += 100
  utimesSync(join(out, 'manifest.json'), mtime, mtime)
}
let mtime = 1_700_000_000

/** `sha384-...` of `code`, as the build records it. */
function sri(code: string): string {
  return `sha384-${createHash('sha384').update(code).digest('base64')}`
}

/** A root whose manifest names its bundle's true integrity: the archive serves nothing else. */
function archivableRoot(): string {
  const dir = root()
  const code = readFileSync(join(dir, 'dist/embed', FILE), 'utf8')
  writeFileSync(join(dir, 'dist/embed/manifest.json'), JSON.stringify({ ...MANIFEST, integrity: sri(code) }))
  return dir
}

afterEach(() => {
  vi.useRealTimers()
})

describe('withEmbedAssets', () => {
  it('serves the versioned bundle for a year, immutable, readable cross-origin for SRI', async () => {
    const res = await app(root()).request(`/embed/${FILE}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('content-type')).toContain('text/javascript')
    expect(await res.text()).toContain('OfferWidget')
  })

  it('serves the bundle brotli- or gzip-encoded by Accept-Encoding, decoding to the bytes its SRI hash covers', async () => {
    const { hono, bundle } = precompressedBundle()
    for (const [accept, encoding, decode] of ENCODINGS) {
      const res = await hono.request(`/embed/${FILE}`, { headers: { 'accept-encoding': accept } })
      expect(res.headers.get('content-encoding')).toBe(encoding)
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(decode(Buffer.from(await res.arrayBuffer()))).toEqual(bundle)
    }
  })

  it('serves the manifest, revalidated, and 404s unknown or traversing names', async () => {
    const hono = app(root())
    const manifest = await hono.request('/embed/manifest.json')
    expect(manifest.headers.get('cache-control')).toBe('no-cache')
    expect(await manifest.json()).toMatchObject({
      ...MANIFEST,
      src: `/embed/${FILE}`,
      stableSrc: '/embed/v0.1/offer-widget.js',
    })
    expect((await hono.request('/embed/..%2Fmanifest.json')).status).toBe(404)
    const unknown = await hono.request('/embed/other.js')
    expect(await unknown.json()).toEqual({ code: 'not_found', message: 'No embed file other.js' })
  })

  it('answers a hashed bundle it does not have with a 404 saying why and what to paste, never other bytes', async () => {
    const hono = app(root())
    const missing = await hono.request('/embed/offer-widget.0.1.0-9999999999.js')
    expect(missing.status).toBe(404)
    // The error registry's shape, readable from any page like the bundle itself.
    expect(missing.headers.get('access-control-allow-origin')).toBe('*')
    expect(missing.headers.get('cache-control')).toBe('no-store')
    const { code, message } = (await missing.json()) as { code: string; message: string }
    expect(code).toBe('not_found')
    expect(message).toContain('no bundle offer-widget.0.1.0-9999999999.js on this BFF')
    expect(message).toContain('set DATA_DIR to a kept volume')
    expect(message).toContain('npm run snippet')
    expect(message).toContain('/embed/v0.1/offer-widget.js')
    // The same line's stable URL, as a pointer for people and tools (RFC 5829), not a redirect.
    expect(missing.headers.get('link')).toBe('</embed/v0.1/offer-widget.js>; rel="latest-version"')
    // Another line may break the page: no pointer.
    const older = await hono.request('/embed/offer-widget.0.0.9-9999999999.js')
    expect(older.status).toBe(404)
    expect(older.headers.get('link')).toBeNull()
  })

  it("serves the line's stable URL: the current bytes, 5 minutes then revalidated by ETag, CORS, by Accept-Encoding", async () => {
    const { hono, bundle } = precompressedBundle()
    for (const [accept, encoding, decode] of ENCODINGS) {
      const res = await hono.request('/embed/v0.1/offer-widget.js', {
        headers: { 'accept-encoding': accept },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBe(encoding)
      expect(res.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400')
      expect(res.headers.get('etag')).toBe(`W/"${FILE}"`)
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(decode(Buffer.from(await res.arrayBuffer()))).toEqual(bundle)
    }
    const revalidated = await hono.request('/embed/v0.1/offer-widget.js', {
      headers: { 'if-none-match': `"x", W/"${FILE}"` },
    })
    expect(revalidated.status).toBe(304)
    expect(await revalidated.text()).toBe('')
    expect(revalidated.headers.get('etag')).toBe(`W/"${FILE}"`)
    expect(revalidated.headers.get('vary')).toBe('Accept-Encoding')
    expect(revalidated.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400')
    expect(revalidated.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('the stable URL follows a rebuild at once: new bytes, new ETag, the old ETag no longer matches', async () => {
    const dir = root()
    const hono = app(dir)
    expect(await (await hono.request('/embed/v0.1/offer-widget.js')).text()).toContain('0.1.0')
    const rebuilt = { version: '0.1.1', file: 'offer-widget.0.1.1-9876543210.js', integrity: 'sha384-def' }
    rebuild(dir, rebuilt, 'window.OfferWidget={version:"0.1.1"}')
    const res = await hono.request('/embed/v0.1/offer-widget.js', {
      headers: { 'if-none-match': `W/"${FILE}"` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBe(`W/"${rebuilt.file}"`)
    expect(await res.text()).toBe('window.OfferWidget={version:"0.1.1"}')
  })

  it("answers another line's stable URL with a 404 naming the current one; v0 is no 0.x line", async () => {
    const hono = app(root())
    for (const line of ['v0.2', 'v1']) {
      const res = await hono.request(`/embed/${line}/offer-widget.js`)
      expect(res.status).toBe(404)
      expect(((await res.json()) as { message: string }).message).toBe(
        `offer-widget: this BFF serves no ${line} bundle; its current one is /embed/v0.1/offer-widget.js (a new line may change what a page must paste: see docs/upgrading.md)`,
      )
    }
    expect(
      ((await (await hono.request('/embed/v0/offer-widget.js')).json()) as { message: string }).message,
    ).toBe('No embed file v0/offer-widget.js')
  })

  it('with an archive, an upgrade keeps serving the hashed bundle it replaced for the retention period, then a 404 saying so', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const dir = archivableRoot()
    const archive = createEmbedArchive({ dir: join(dir, 'data/embed'), retentionDays: 30 })
    // Started on build A: archived at start; a request that reads the archive waits for that.
    const hono = app(dir, archive)
    expect((await hono.request('/embed/v0.2/offer-widget.js')).status).toBe(404)
    const code = 'window.OfferWidget={version:"0.2.0"}'
    const next = { version: '0.2.0', file: 'offer-widget.0.2.0-9876543210.js', integrity: sri(code) }
    rebuild(dir, next, 'window.OfferWidget={version:"0.2.0"}')
    // The upgrade is noticed on the next request; build A's file is gone from dist/embed.
    expect((await hono.request(`/embed/${next.file}`)).status).toBe(200)
    const pinned = await hono.request(`/embed/${FILE}`)
    expect(pinned.status).toBe(200)
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await pinned.text()).toBe('window.OfferWidget={version:"0.1.0"}')
    // The old line's stable URL serves its newest bundle too; the new line serves the new one.
    expect(await (await hono.request('/embed/v0.1/offer-widget.js')).text()).toBe(
      'window.OfferWidget={version:"0.1.0"}',
    )
    expect(await (await hono.request('/embed/v0.2/offer-widget.js')).text()).toBe(
      'window.OfferWidget={version:"0.2.0"}',
    )
    vi.advanceTimersByTime(30 * 86_400_000)
    expect((await hono.request(`/embed/${FILE}`)).status).toBe(200)
    vi.advanceTimersByTime(1)
    const gone = await hono.request(`/embed/${FILE}`)
    expect(gone.status).toBe(404)
    expect(((await gone.json()) as { message: string }).message).toContain(
      'it was replaced by a newer build more than 30 days ago',
    )
    expect((await hono.request('/embed/v0.1/offer-widget.js')).status).toBe(404)
  })

  it('starts and serves its current bundle when the archive cannot be written, warning with the folder and the fix, and the metric says so', async () => {
    const dir = root()
    // A file where the archive's folder should be: every write fails, as on a full or read-only volume.
    writeFileSync(join(dir, 'data'), '')
    const warn = vi.fn<(message: string) => void>()
    const archive = createEmbedArchive({ dir: join(dir, 'data/embed'), retentionDays: 30, warn })
    const registry = new Registry()
    registerEmbedArchiveMetric(registry, archive)
    const hono = new Hono()
    hono.get('*', withEmbedAssets(undefined, { root: dir, archive, warn }))
    const current = await hono.request(`/embed/${FILE}`)
    expect(current.status).toBe(200)
    expect(await (await hono.request('/embed/v0.1/offer-widget.js')).text()).toContain('0.1.0')
    // An archive lookup waits for the archiving in flight, so by now it has failed and said so.
    expect((await hono.request('/embed/v0.2/offer-widget.js')).status).toBe(404)
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /could not keep bundle .* in .*data\/embed \(DATA_DIR\/embed\).*make the directory writable and give it space/,
      ),
    )
    expect(await registry.metrics()).toContain('bff_embed_archive_writable 0')
  })

  it('never serves a truncated archived bundle with a year of caching: a 404, and a warning', async () => {
    const dir = archivableRoot()
    const warn = vi.fn<(message: string) => void>()
    const archive = createEmbedArchive({ dir: join(dir, 'data/embed'), retentionDays: 30, warn })
    const hono = app(dir, archive)
    expect((await hono.request('/embed/v0.2/offer-widget.js')).status).toBe(404)
    const code = 'window.OfferWidget={version:"0.2.0"}'
    rebuild(dir, { version: '0.2.0', file: 'offer-widget.0.2.0-9876543210.js', integrity: sri(code) }, code)
    expect((await hono.request('/embed/manifest.json')).status).toBe(200)
    expect((await hono.request(`/embed/${FILE}`)).status).toBe(200)
    // A full disk or an interrupted copy: fewer bytes than the record's integrity covers.
    truncateSync(join(dir, 'data/embed', FILE), 8)
    const pinned = await hono.request(`/embed/${FILE}`)
    expect(pinned.status).toBe(404)
    expect(pinned.headers.get('cache-control')).toBe('no-store')
    expect((await hono.request('/embed/v0.1/offer-widget.js')).status).toBe(404)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('does not match its recorded integrity'))
  })

  it('puts a mount point and the current snippet into the demo page', async () => {
    const html = await (await app(root()).request('/demo.html?zip=00002&theme=dark')).text()
    expect(html).not.toContain(AUTO_PLACEHOLDER)
    expect(html).toContain(
      '<div id="offer-widget" data-offer-widget data-endpoint="" data-zip-code="00002" data-theme="dark"></div>',
    )
    expect(html).toContain(`<script>${snippetFor(MANIFEST)}</script>`)
    expect(html).toContain(`"/embed/${FILE}","sha384-abc"`)
  })

  it('ignores query values that do not match their pattern', async () => {
    const html = await (await app(root()).request('/demo.html?zip=%22%3E%3Cscript%3E&theme=x')).text()
    expect(html).toContain('<div id="offer-widget" data-offer-widget data-endpoint=""></div>')
    expect(html).not.toContain('"><script>')
  })

  it('falls through without a build, and for every other path', async () => {
    expect(await (await app(root(false)).request('/demo.html')).text()).toBe('fallback')
    expect(await (await app(root()).request('/index.html')).text()).toBe('fallback')
  })

  it('reads the manifest once per build, and again after a rebuild, without a restart', async () => {
    const dir = root()
    const path = join(dir, 'dist/embed/manifest.json')
    const rebuilt = 'offer-widget.0.1.0-9876543210.js'
    writeFileSync(join(dir, 'dist/embed', rebuilt), 'window.OfferWidget={version:"0.1.0"}')
    const served = async (hono: Hono) =>
      ((await (await hono.request('/embed/manifest.json')).json()) as { file: string }).file
    utimesSync(path, 1_700_000_000, 1_700_000_000)
    const hono = app(dir)
    expect(await served(hono)).toBe(FILE)
    // Same size, same modification time: the cached manifest is served, so the file was not read again.
    writeFileSync(path, JSON.stringify({ ...MANIFEST, file: rebuilt }))
    utimesSync(path, 1_700_000_000, 1_700_000_000)
    expect(await served(hono)).toBe(FILE)
    // A rebuild changes the modification time: the next request serves the new bundle.
    utimesSync(path, 1_700_000_100, 1_700_000_100)
    expect(await served(hono)).toBe(rebuilt)
    expect((await hono.request(`/embed/${rebuilt}`)).status).toBe(200)
  })
})

describe('publisherEmbed (npm run snippet)', () => {
  it('gives the snippet for the BFF origin with the hash that allows it and a CSP for the widget', () => {
    const embed = publisherEmbed(MANIFEST, 'https://bff.example/some/path/')
    expect(embed.mountPoint).toBe(
      '<div class="offer-widget-slot" data-offer-widget data-endpoint="https://bff.example"></div>',
    )
    // The default loader names the line's stable URL, without SRI; the pinned one the hashed file, with it.
    expect(embed.script).toBe(stableSnippetFor(MANIFEST, 'https://bff.example'))
    expect(embed.script).toContain('"https://bff.example/embed/v0.1/offer-widget.js",""')
    expect(embed.stableSrc).toBe('https://bff.example/embed/v0.1/offer-widget.js')
    expect(embed.snippet).toBe(`<script>${embed.script}</script>`)
    expect(embed.integrity).toBe('sha384-abc')
    expect(embed.pinned.script).toBe(snippetFor(MANIFEST, 'https://bff.example'))
    expect(embed.pinned.src).toBe(`https://bff.example/embed/${FILE}`)
    expect(embed.pinned.snippet).toBe(`<script>${embed.pinned.script}</script>`)
    const pinnedHash = `'sha256-${createHash('sha256').update(embed.pinned.script).digest('base64')}'`
    expect(embed.pinned.cspHash).toBe(pinnedHash)
    expect(embed.pinned.csp).toBe(
      embed.csp.replace(`'sha256-${createHash('sha256').update(embed.script).digest('base64')}'`, pinnedHash),
    )
    const hash = `'sha256-${createHash('sha256').update(embed.script).digest('base64')}'`
    expect(embed.cspHash).toBe(hash)
    const css = /^<style>(.*)<\/style>$/.exec(embed.reservation)?.[1] ?? ''
    const styleHash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`
    expect(embed.reservationCspHash).toBe(styleHash)
    expect(embed.csp.split('; ')).toEqual([
      "default-src 'self'",
      `script-src 'self' ${hash} https://bff.example/embed/`,
      "connect-src 'self' https://bff.example",
      "img-src 'self' https://bff.example https:",
      `style-src 'self' ${styleHash}`,
    ])
  })

  it('prints one paste-ready block: the height reservation, the mount point, a commented one with data-zip-code, the loader', () => {
    const embed = publisherEmbed(MANIFEST, 'https://bff.example')
    const lines = embed.pasteBlock.split('\n')
    expect(lines[1]).toBe(embed.reservation)
    expect(embed.reservation).toMatch(/^<style>\.offer-widget-slot\{display:block;min-height:\d+px\}/)
    expect(lines[2]).toBe(embed.mountPoint)
    // The ZIP line sits inside an HTML comment: pasted as printed it does nothing.
    expect(lines[3]).toMatch(/^<!-- /)
    expect(lines[4]).toMatch(/data-zip-code="\d{5}"><\/div> -->$/)
    expect(lines.at(-1)).toBe(embed.snippet)
  })

  it('refuses what is not an http(s) origin, saying what to pass', () => {
    expect(() => publisherEmbed(MANIFEST, 'bff.example')).toThrow(/absolute http\(s\) URL/)
    expect(() => publisherEmbed(MANIFEST, 'javascript:alert(1)')).toThrow(/absolute http\(s\) URL/)
  })
})
