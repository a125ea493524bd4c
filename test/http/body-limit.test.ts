/**
 * @module Body limit: a declared Content-Length decides without the body being touched (so
 * @hono/node-server keeps its direct read path), a chunked body is counted as it arrives; both answer the
 * given 413 past the limit and hand the whole body to the handler within it.
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bodyLimit } from '../../src/http/body-limit.ts'

const MAX = 100

function app() {
  const a = new Hono()
  a.use('*', bodyLimit({ maxBytes: MAX, onError: (c) => c.json({ code: 'payload_too_large' }, 413) }))
  a.post('/x', async (c) => c.json({ length: (await c.req.text()).length }))
  return a
}

/** A request whose `body` getter counts reads: the path @hono/node-server makes expensive. */
function watched(body: string, headers: Record<string, string>) {
  const request = new Request('http://localhost/x', { method: 'POST', body, headers })
  let bodyReads = 0
  const native = Object.getOwnPropertyDescriptor(Request.prototype, 'body')?.get
  Object.defineProperty(request, 'body', {
    get() {
      bodyReads++
      return native?.call(request)
    },
  })
  return { request, bodyReads: () => bodyReads }
}

/** A chunked body: a stream without a declared length. */
function chunked(text: string) {
  const bytes = new TextEncoder().encode(text)
  return new Request('http://localhost/x', {
    method: 'POST',
    body: new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 30) controller.enqueue(bytes.slice(i, i + 30))
        controller.close()
      },
    }),
    duplex: 'half',
  } as RequestInit)
}

describe('bodyLimit with Content-Length', () => {
  it('refuses a declared length over the limit without reading the body', async () => {
    const over = watched('x'.repeat(MAX + 1), { 'content-length': String(MAX + 1) })
    const res = await app().fetch(over.request)
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ code: 'payload_too_large' })
    expect(over.bodyReads()).toBe(0)
  })

  it('lets a declared length at the limit through, body untouched until the handler reads it', async () => {
    const within = watched('x'.repeat(MAX), { 'content-length': String(MAX) })
    const res = await app().fetch(within.request)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ length: MAX })
    expect(within.bodyReads()).toBe(0)
  })
})

describe('bodyLimit without Content-Length', () => {
  it('counts a chunked body: over the limit is 413, within it reaches the handler whole', async () => {
    const over = await app().fetch(chunked('x'.repeat(MAX + 1)))
    expect(over.status).toBe(413)
    const within = await app().fetch(chunked('x'.repeat(MAX)))
    expect(within.status).toBe(200)
    expect(await within.json()).toEqual({ length: MAX })
  })
})

describe('bodyLimit on @hono/node-server', () => {
  let server: ReturnType<typeof serve>
  let url = ''
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app().fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        url = `http://127.0.0.1:${info.port}/x`
        resolve()
      })
    })
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('applies the limit to real sockets, with and without a declared length', async () => {
    const post = (body: BodyInit) =>
      fetch(url, { method: 'POST', body, duplex: 'half' } as RequestInit).then((r) => r.status)
    expect(await post('x'.repeat(MAX))).toBe(200)
    expect(await post('x'.repeat(MAX + 1))).toBe(413)
    const stream = (n: number) =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('x'.repeat(n)))
          controller.close()
        },
      })
    expect(await post(stream(MAX))).toBe(200)
    expect(await post(stream(MAX + 1))).toBe(413)
  })
})
