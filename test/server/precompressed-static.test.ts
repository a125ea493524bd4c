/**
 * @module Static files with their build-time brotli and gzip copies: the copy the request's Accept-Encoding
 * allows (brotli first), the file itself otherwise; `Vary: Accept-Encoding` on every answer that could have
 * been encoded; Cache-Control by the file's own name; and the build step that writes the copies.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { precompressDirectory } from '../../scripts/precompress.ts'
import { cacheControlFor, IMMUTABLE } from '../../src/server/cache-control.ts'
import { precompressedStatic } from '../../src/server/precompressed-static.ts'

const SCRIPT = 'main-AbCdEf12.js'
const source = Buffer.from(
  `export const offers = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `offer ${i}`))}\n`,
)

function built() {
  const dir = mkdtempSync(join(tmpdir(), 'precompressed-'))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'assets', SCRIPT), source)
  writeFileSync(join(dir, 'assets', 'tiny-AbCdEf12.js'), 'export {}\n')
  writeFileSync(join(dir, 'logo.png'), Buffer.alloc(4096, 7))
  precompressDirectory(dir)
  return dir
}

function app(dir: string) {
  const hono = new Hono()
  hono.get('*', precompressedStatic({ root: dir, cacheControl: cacheControlFor }))
  return hono
}

const get = (dir: string, path: string, acceptEncoding?: string) =>
  app(dir).request(path, {
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  })

describe('precompressDirectory', () => {
  it('writes .br and .gz copies that decode to the file, and skips files under 1 KiB and images', () => {
    const dir = built()
    const file = join(dir, 'assets', SCRIPT)
    expect(brotliDecompressSync(readFileSync(`${file}.br`))).toEqual(source)
    expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(source)
    expect(existsSync(join(dir, 'assets', 'tiny-AbCdEf12.js.br'))).toBe(false)
    expect(existsSync(join(dir, 'logo.png.br'))).toBe(false)
  })
})

describe('precompressedStatic', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['gzip, deflate', 'gzip', gunzipSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
  ])('Accept-Encoding %j gets the %s copy, immutable, with Vary', async (accept, encoding, decode) => {
    const res = await get(built(), `/assets/${SCRIPT}`, accept)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe(encoding)
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const body = Buffer.from(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(body.length)
    expect(body.length).toBeLessThan(source.length)
    expect(decode(body)).toEqual(source)
  })

  it.each([
    ['no Accept-Encoding', undefined],
    ['identity', 'identity'],
  ])('%s gets the file itself, still with Vary so a cache keeps the two apart', async (_name, accept) => {
    const res = await get(built(), `/assets/${SCRIPT}`, accept)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(source)
  })

  it('says nothing of encodings for a type that is never encoded', async () => {
    const res = await get(built(), '/logo.png', 'gzip, br')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBeNull()
  })

  it('never serves a copy by its own name as a different type, and falls through for a missing file', async () => {
    const copy = await get(built(), `/assets/${SCRIPT}.br`)
    expect(copy.headers.get('content-encoding')).toBeNull()
    expect(copy.headers.get('content-type')).not.toContain('javascript')
    expect((await get(built(), '/assets/missing-AbCdEf12.js', 'br')).status).toBe(404)
  })
})
