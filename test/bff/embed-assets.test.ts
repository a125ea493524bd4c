/**
 * @module The BFF's embed assets: the versioned bundle (immutable, CORS), the manifest, and the demo page
 * with the current snippet substituted into its placeholder; everything else falls through. The snippet
 * command's output for a BFF on another origin: snippet, SRI, CSP hash and CSP line.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { precompressDirectory } from '../../scripts/precompress.ts'
import { AUTO_PLACEHOLDER, publisherEmbed, snippetFor, withEmbedAssets } from '../../src/bff/embed-assets.ts'

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

function app(dir: string) {
  const hono = new Hono()
  hono.get(
    '*',
    withEmbedAssets(async (c) => c.text('fallback'), { root: dir }),
  )
  return hono
}

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
    const dir = root()
    const bundle = Buffer.from(
      `window.OfferWidget={offers:${JSON.stringify(Array.from({ length: 300 }, String))}}`,
    )
    writeFileSync(join(dir, 'dist/embed', FILE), bundle)
    precompressDirectory(join(dir, 'dist/embed'))
    const hono = app(dir)
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['', null, (b: Buffer) => b],
    ] as const) {
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
    expect(await manifest.json()).toMatchObject({ ...MANIFEST, src: `/embed/${FILE}` })
    expect((await hono.request('/embed/..%2Fmanifest.json')).status).toBe(404)
    const missing = await hono.request('/embed/offer-widget.0.1.0-9999999999.js')
    expect(missing.status).toBe(404)
    // The error registry's shape, readable from any page like the bundle itself.
    expect(missing.headers.get('access-control-allow-origin')).toBe('*')
    expect(await missing.json()).toEqual({
      code: 'not_found',
      message: 'No embed file offer-widget.0.1.0-9999999999.js',
    })
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
    expect(embed.script).toBe(snippetFor(MANIFEST, 'https://bff.example'))
    expect(embed.snippet).toBe(`<script>${embed.script}</script>`)
    expect(embed.integrity).toBe('sha384-abc')
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
