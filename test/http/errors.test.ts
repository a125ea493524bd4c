/**
 * @module The error registry of src/http/: one body shape with a stable code, `no-store`, one `Retry-After`
 * rule (whole seconds, never 0), and the app-level handlers that render Hono's bare exceptions and unknown
 * errors in that shape without leaking what went wrong.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import {
  errorResponse,
  httpError,
  onHttpError,
  onHttpNotFound,
  retryAfterHeader,
} from '../../src/http/errors.ts'

describe('retryAfterHeader', () => {
  it.each([
    [1, '1'],
    [2, '2'],
    [0.001, '1'],
    [1.2, '2'],
    [0, '1'],
    [-3, '1'],
  ])('%s s is Retry-After: %s', (seconds, header) => {
    expect(retryAfterHeader(seconds)).toEqual({ 'retry-after': header })
  })
})

describe('errorResponse', () => {
  it('answers { code, message } as uncacheable JSON', async () => {
    const res = errorResponse(404, 'not_found', 'No such thing')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('retry-after')).toBeNull()
    expect(await res.json()).toEqual({ code: 'not_found', message: 'No such thing' })
  })

  it('lists field issues with their two keys only, and writes Retry-After and extra headers', async () => {
    const issue = { field: 'amount', reason: 'must be positive', extra: 'dropped' }
    const res = errorResponse(503, 'upstream_unavailable', 'Later', {
      errors: [issue],
      retryAfterSeconds: 2,
      headers: { connection: 'close' },
    })
    expect(res.headers.get('retry-after')).toBe('2')
    expect(res.headers.get('connection')).toBe('close')
    expect(await res.json()).toEqual({
      code: 'upstream_unavailable',
      message: 'Later',
      errors: [{ field: 'amount', reason: 'must be positive' }],
    })
  })

  it('leaves out an empty errors list', async () => {
    expect(await errorResponse(400, 'bad_request', 'No', { errors: [] }).json()).toEqual({
      code: 'bad_request',
      message: 'No',
    })
  })
})

describe('onHttpError and onHttpNotFound', () => {
  const logged: unknown[] = []
  const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) })
  const app = new Hono()
    .onError(onHttpError(logger))
    .notFound(onHttpNotFound)
    .use(async (c, next) => {
      c.header('access-control-allow-origin', 'https://publisher.example')
      await next()
    })
    .get('/ours', () => {
      throw httpError(429, 'rate_limited', 'Slow down', { retryAfterSeconds: 3 })
    })
    .get('/bare', () => {
      throw new HTTPException(413)
    })
    .get('/bug', () => {
      throw new Error('secret detail')
    })

  it('renders our own exception as it is, with the headers middleware prepared', async () => {
    const res = await app.request('/ours')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('3')
    expect(res.headers.get('access-control-allow-origin')).toBe('https://publisher.example')
    expect(await res.json()).toEqual({ code: 'rate_limited', message: 'Slow down' })
  })

  it("maps Hono's bare exception to the code of its status", async () => {
    const res = await app.request('/bare')
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ code: 'payload_too_large', message: 'Request refused' })
  })

  it('answers anything else 500 internal, logging it and saying nothing of it', async () => {
    const res = await app.request('/bug')
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ code: 'internal', message: 'Internal error' })
    expect(logged).toMatchObject([{ msg: 'unhandled error in a BFF route', path: '/bug' }])
  })

  it('answers an unknown route 404 not_found, naming it', async () => {
    const res = await app.request('/nowhere', { method: 'DELETE' })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ code: 'not_found', message: 'No route for DELETE /nowhere' })
  })
})
