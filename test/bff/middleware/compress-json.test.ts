/**
 * @module JSON answers of 1 KiB or more go gzip-encoded to clients that accept gzip, with the same status
 * and headers; smaller answers, other types, HEAD and clients without gzip get the bytes as they were. Every
 * JSON answer says it varies by Accept-Encoding.
 */
import { gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { compressJson } from '../../../src/bff/middleware/compress-json/index.ts'

const big = { offers: Array.from({ length: 60 }, (_, i) => ({ id: `offer-${i}`, name: 'Example Mutual' })) }
const bigBytes = Buffer.byteLength(JSON.stringify(big))
// Past the size gzipped on the event loop: gzipped on libuv's pool instead, the same bytes out.
const huge = { rows: Array.from({ length: 4000 }, (_, i) => ({ i, name: `placement-${i % 37}` })) }

function app() {
  const a = new Hono()
  a.use('*', compressJson())
  a.onError((error, c) => {
    const status = error instanceof HTTPException ? error.status : 500
    c.header('Retry-After', '7')
    return c.json({ code: 'upstream_unavailable', message: 'x'.repeat(2000) }, status)
  })
  a.get('/big', (c) => {
    c.header('Cache-Control', 'no-store')
    c.header('Access-Control-Allow-Origin', 'https://publisher.example')
    return c.json(big, 202)
  })
  a.get('/small', (c) => c.json({ ok: true }))
  a.get('/huge', (c) => c.json(huge))
  a.get('/text', (c) => c.text('y'.repeat(5000)))
  a.get('/failing', () => {
    throw new HTTPException(503)
  })
  return a
}

const get = (path: string, acceptEncoding?: string, method = 'GET') =>
  app().request(path, {
    method,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  })

describe('compressJson', () => {
  it('gzips a JSON answer over 1 KiB, keeping its status and headers', async () => {
    expect(bigBytes).toBeGreaterThan(1024)
    const res = await get('/big', 'gzip, deflate, br')
    expect(res.status).toBe(202)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('access-control-allow-origin')).toBe('https://publisher.example')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const wire = Buffer.from(await res.arrayBuffer())
    expect(wire.length).toBeLessThan(bigBytes / 4)
    expect(JSON.parse(gunzipSync(wire).toString())).toEqual(big)
  })

  it.each([
    ['gzip with a weight', 'br;q=1.0, gzip;q=0.5'],
    ['any encoding', '*'],
    ['gzip in capitals', 'GZIP'],
  ])('gzips for a client that takes %s', async (_name, accept) => {
    const res = await get('/big', accept)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toEqual(big)
  })

  it('gzips an answer of hundreds of KiB too, its length counted', async () => {
    const hugeBytes = Buffer.byteLength(JSON.stringify(huge))
    expect(hugeBytes).toBeGreaterThan(64 * 1024)
    const res = await get('/huge', 'gzip')
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const wire = Buffer.from(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(wire.length)
    expect(JSON.parse(gunzipSync(wire).toString())).toEqual(huge)
  })

  it('gzips an error answer the same way, status and Retry-After kept', async () => {
    const res = await get('/failing', 'gzip')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('7')
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toMatchObject({
      code: 'upstream_unavailable',
    })
  })

  it.each([
    ['no Accept-Encoding', undefined],
    ['brotli only', 'br'],
    ['gzip refused', 'gzip;q=0, identity'],
    ['gzip refused beside any other', '*, gzip;q=0'],
  ])('sends the JSON as it is to a client with %s, saying the answer varies', async (_name, accept) => {
    const res = await get('/big', accept)
    expect(res.status).toBe(202)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    // Not read here (the server adapter counts the bytes as it writes them): the same bytes go out.
    expect((await res.arrayBuffer()).byteLength).toBe(bigBytes)
    expect(JSON.parse(await (await get('/big', accept)).text())).toEqual(big)
  })

  it('leaves small JSON (which still varies by encoding), other types and HEAD alone', async () => {
    const small = await get('/small', 'gzip')
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(small.headers.get('vary')).toBe('Accept-Encoding')
    expect(small.headers.get('content-length')).toBe(String('{"ok":true}'.length))
    expect(await small.json()).toEqual({ ok: true })
    const text = await get('/text', 'gzip')
    expect(text.headers.get('content-encoding')).toBeNull()
    expect(text.headers.get('vary')).toBeNull()
    expect(await text.text()).toBe('y'.repeat(5000))
    const head = await get('/big', 'gzip', 'HEAD')
    expect(head.headers.get('content-encoding')).toBeNull()
  })
})
