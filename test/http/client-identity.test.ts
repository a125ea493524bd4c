/**
 * @module Client identity. docs/offer-search-api.md: session information "must be taken from the live end-user session and
 * passed through accurately", so a spoofed X-Forwarded-For never wins and a trusted hop is peeled exactly.
 */
import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { normalizeAddress } from '../../src/http/client-address.ts'
import { createClientIdentity } from '../../src/http/client-identity.ts'
import { onHttpError } from '../../src/http/errors.ts'

function identityApp(trustProxy: string | undefined, peer: string) {
  const identity = createClientIdentity({ trustProxy, getSocketAddress: () => peer })
  const app = new Hono()
  app.onError(onHttpError(createLogger({ level: 'silent' })))
  app.get('/', (c) => c.json(identity(c)))
  return app
}

async function identify(trustProxy: string | undefined, peer: string, xff?: string, ua = 'Mozilla/5.0 test') {
  const headers: Record<string, string> = { 'user-agent': ua }
  if (xff !== undefined) headers['x-forwarded-for'] = xff
  const res = await identityApp(trustProxy, peer).request('/', { headers })
  return {
    status: res.status,
    body: (await res.json()) as { ipAddress?: string; userAgent?: string; code?: string },
  }
}

describe('createClientIdentity', () => {
  it('uses the socket address and ignores X-Forwarded-For when no proxy is trusted', async () => {
    const { body } = await identify(undefined, '203.0.113.7', '1.1.1.1')
    expect(body).toEqual({ ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 test' })
  })

  it('with one trusted hop takes the rightmost X-Forwarded-For entry, never the spoofed leftmost', async () => {
    const { body } = await identify('1', '10.0.0.1', '6.6.6.6, 198.51.100.9')
    expect(body.ipAddress).toBe('198.51.100.9')
  })

  it('with two trusted hops skips exactly two', async () => {
    const { body } = await identify('2', '10.0.0.1', '6.6.6.6, 198.51.100.9, 10.0.0.2')
    expect(body.ipAddress).toBe('198.51.100.9')
  })

  it('with trusted CIDRs takes the rightmost entry outside them', async () => {
    const { body } = await identify(
      '10.0.0.0/8, 192.168.0.0/16',
      '10.0.0.1',
      '6.6.6.6, 198.51.100.9, 192.168.1.1',
    )
    expect(body.ipAddress).toBe('198.51.100.9')
  })

  it('ignores X-Forwarded-For sent directly by an untrusted peer even when proxies are configured', async () => {
    const { body } = await identify('10.0.0.0/8', '203.0.113.7', '6.6.6.6')
    expect(body.ipAddress).toBe('203.0.113.7')
  })

  it('forwards IPv6 canonically and an IPv4-mapped IPv6 address as plain IPv4', async () => {
    expect((await identify(undefined, '2001:DB8:0:0::1')).body.ipAddress).toBe('2001:db8::1')
    expect((await identify(undefined, '::ffff:203.0.113.7')).body.ipAddress).toBe('203.0.113.7')
    expect((await identify('1', '::1', '6.6.6.6, ::ffff:198.51.100.9')).body.ipAddress).toBe('198.51.100.9')
    // A mapped socket address matches an IPv4 CIDR.
    expect((await identify('10.0.0.0/8', '::ffff:10.0.0.1', '198.51.100.9')).body.ipAddress).toBe(
      '198.51.100.9',
    )
  })

  it('answers 400, not a guess, when the entry after the trusted hops is not an address', async () => {
    const { status, body } = await identify('1', '10.0.0.1', '198.51.100.9, not-an-ip')
    expect(status).toBe(400)
    expect(body.code).toBe('bad_request')
    expect((await identify('1', '10.0.0.1', '1.2.3')).status).toBe(400)
  })

  it('requires a User-Agent (docs/offer-search-api.md: sessionInformation.userAgent is required)', async () => {
    const res = await identityApp(undefined, '203.0.113.7').request('/')
    expect(res.status).toBe(400)
  })

  it('with one trusted hop always answers the rightmost address, whatever the chain', async () => {
    const address = fc.oneof(fc.ipV4(), fc.ipV6())
    await fc.assert(
      fc.asyncProperty(fc.array(address, { minLength: 1, maxLength: 6 }), async (chain) => {
        const { body } = await identify('1', '10.0.0.1', chain.join(', '))
        expect(body.ipAddress).toBe(normalizeAddress(chain[chain.length - 1] as string))
      }),
      { numRuns: 50 },
    )
  })
})
