/**
 * One partner call on the undici dispatcher itself, against a node:http server whose every answer the
 * test writes: what goes on the wire, how a reply is capped, and how a call ends without a reply.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { callPartner } from '../../../src/marketplace/fan-out/call-partner.ts'
import { signal, watch } from '../../support/promises.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void

const APPROVED = {
  status: 'approved',
  lead_id: 'ref_1',
  offers: [{ rate: 12.5, click_url: 'https://partner.example/click/1' }],
}

describe('callPartner', () => {
  let handler: Handler = (_req, _body, res) => res.end()
  let origin = ''
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res))
  })
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 })
  const partner = (path: string, auth?: { header: string; value: string }) => ({
    id: 'p',
    endpoint: `${origin}${path}`,
    auth,
  })
  const call = (path: string, body: string | Buffer = '{}', extra: { shutdown?: AbortSignal } = {}) =>
    callPartner(partner(path), body, { dispatcher, timeoutMs: 5_000, maxBodyBytes: 1_000, ...extra })

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterEach(() => {
    vi.useRealTimers()
  })
  afterAll(async () => {
    await dispatcher.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('POSTs the lead bytes with JSON headers and the partner credential, the same buffer to every partner', async () => {
    const seen: Array<{ path?: string; body: string; headers: IncomingMessage['headers'] }> = []
    handler = (req, body, res) => {
      seen.push({ path: req.url, body, headers: req.headers })
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(APPROVED))
    }
    const lead = Buffer.from(JSON.stringify({ personalInformation: { firstName: 'Ada' } }))
    const options = { dispatcher, timeoutMs: 5_000 }
    const [a, b] = await Promise.all([
      callPartner(partner('/a?x=1', { header: 'X-Partner-Key', value: 'k-a' }), lead, options),
      callPartner(partner('/b'), lead, options),
    ])
    expect(a).toMatchObject({ status: 'approved', httpStatus: 200, partnerLeadId: 'ref_1' })
    expect(a.offers).toEqual(APPROVED.offers)
    expect(b.status).toBe('approved')
    const byPath = Object.fromEntries(seen.map((s) => [s.path, s]))
    expect(byPath['/a?x=1']?.body).toBe('{"personalInformation":{"firstName":"Ada"}}')
    expect(byPath['/b']?.body).toBe(byPath['/a?x=1']?.body)
    expect(byPath['/a?x=1']?.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'offer-widget-marketplace/1',
      'x-partner-key': 'k-a',
    })
    expect(byPath['/b']?.headers['x-partner-key']).toBeUndefined()
  })

  it('stops reading a streamed reply at the cap, with no Content-Length to go by', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      for (let i = 0; i < 8; i++) res.write('x'.repeat(300))
      res.end()
    }
    const outcome = await call('/streamed')
    expect(outcome).toMatchObject({
      status: 'error',
      httpStatus: 200,
      reason: 'reply exceeds the 1000-byte limit',
    })
  })

  it('refuses a declared oversized reply before reading it', async () => {
    handler = (_req, _body, res) => {
      res.setHeader('content-length', '5000')
      res.end('y'.repeat(5000))
    }
    expect(await call('/declared')).toMatchObject({
      status: 'error',
      reason: 'reply of 5000 bytes exceeds the 1000-byte limit',
    })
  })

  it('does not follow a redirect: a 3xx is an error with its status', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(302, { location: `${origin}/elsewhere` })
      res.end()
    }
    expect(await call('/moved')).toMatchObject({
      status: 'error',
      httpStatus: 302,
      reason: 'HTTP 302 from the partner',
    })
  })

  it('times out at its window and aborts the request on the wire', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const received = signal()
    const aborted = signal()
    handler = (_req, _body, res) => {
      res.on('close', aborted.resolve)
      received.resolve()
    }
    const pending = call('/hangs')
    await received.promise
    vi.advanceTimersByTime(4_999)
    const watched = watch(pending)
    await Promise.resolve()
    expect(watched.settled()).toBe(false)
    vi.advanceTimersByTime(1)
    expect(await pending).toMatchObject({ status: 'timeout', reason: 'no reply within 5000 ms', offers: [] })
    await aborted.promise
  })

  it('ends as timed out when the shared deadline of the lead expires, with no timer of its own', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const received = signal()
    handler = () => received.resolve()
    const deadline = new AbortController()
    const pending = callPartner(partner('/shared-deadline'), '{}', {
      dispatcher,
      timeoutMs: 250,
      expire: deadline.signal,
    })
    await received.promise
    // Its own window would have ended long ago: only the shared deadline ends it.
    vi.advanceTimersByTime(60_000)
    const watched = watch(pending)
    await Promise.resolve()
    expect(watched.settled()).toBe(false)
    deadline.abort()
    expect(await pending).toMatchObject({ status: 'timeout', reason: 'no reply within 250 ms' })
    const late = await callPartner(partner('/after-deadline'), '{}', {
      dispatcher,
      timeoutMs: 250,
      expire: deadline.signal,
    })
    expect(late.status).toBe('timeout')
  })

  it('ends at once when the marketplace shuts down, and never sends once it has', async () => {
    const received = signal()
    let hits = 0
    handler = () => {
      hits++
      received.resolve()
    }
    const shutdown = new AbortController()
    const pending = call('/shutdown', '{}', { shutdown: shutdown.signal })
    await received.promise
    shutdown.abort()
    expect(await pending).toMatchObject({
      status: 'error',
      reason: 'the marketplace shut down before the reply',
    })
    const after = await call('/after', '{}', { shutdown: shutdown.signal })
    expect(after.reason).toBe('the marketplace shut down before the reply')
    expect(hits).toBe(1)
  })

  it('names the transport failure of an unreachable endpoint', async () => {
    const closedServer = createServer()
    await new Promise<void>((resolve) => closedServer.listen(0, '127.0.0.1', resolve))
    const port = (closedServer.address() as AddressInfo).port
    await new Promise((resolve) => closedServer.close(resolve))
    const outcome = await callPartner({ id: 'gone', endpoint: `http://127.0.0.1:${port}/` }, '{}', {
      dispatcher,
      timeoutMs: 5_000,
    })
    expect(outcome.status).toBe('error')
    expect(outcome.reason).toMatch(/^request failed: ECONNREFUSED/)
  })
})
