/**
 * @module The one IP canonicalising rule (`normalizeAddress`) and the one trusted-proxy walk (`addressBehindProxies`)
 * of `client-identity.ts`, as tables, on the inputs where the old copies disagreed (inet_aton forms, zone ids,
 * mapped IPv4, case and zero compression). Every caller must key a visitor the same way: the BFF's
 * `clientIdentity`, `readVisitor` for the publisher's server, and the per-IP connection cap.
 */
import { EventEmitter } from 'node:events'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { compileTrust, normalizeAddress } from '../../src/http/client-address.ts'
import { createClientIdentity } from '../../src/http/client-identity.ts'
import { onHttpError } from '../../src/http/errors.ts'
import { readVisitor } from '../../src/publisher/read-visitor.ts'
import { capConnectionsPerIp } from '../../src/server/connection-cap.ts'

/** [input, canonical form or undefined when the BFF refuses it]. */
const CANONICAL: Array<[string, string | undefined]> = [
  // IPv4 as the upstream takes it.
  ['203.0.113.7', '203.0.113.7'],
  ['0.0.0.0', '0.0.0.0'],
  ['255.255.255.255', '255.255.255.255'],
  [' 203.0.113.7 ', '203.0.113.7'],
  ['203.0.113.7\n', '203.0.113.7'],
  // IPv4-mapped IPv6 (a dual-stack socket's view of an IPv4 client) is that IPv4 client.
  ['::ffff:203.0.113.7', '203.0.113.7'],
  ['::FFFF:203.0.113.7', '203.0.113.7'],
  ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
  ['::ffff:cb00:7107', '203.0.113.7'],
  ['::ffff:7f00:1', '127.0.0.1'],
  // IPv6: lower case, zeros compressed, leading zeros dropped.
  ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
  ['2001:db8::1', '2001:db8::1'],
  ['2001:0db8:0000::0001', '2001:db8::1'],
  ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
  ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
  ['FFFF::', 'ffff::'],
  ['::1', '::1'],
  ['::', '::'],
  // Embedded IPv4 that is not the mapped prefix stays IPv6 (NAT64, a /96 of another prefix).
  ['64:ff9b::203.0.113.7', '64:ff9b::cb00:7107'],
  // IPv4-compatible (RFC 4291's deprecated ::/96) is not IPv4-mapped: ipaddr.js alone reads it as mapped.
  ['::203.0.113.7', '::cb00:7107'],
  ['::CB00:7107', '::cb00:7107'],
  ['::ffff:0:203.0.113.7', '::ffff:0:cb00:7107'],
  // inet_aton shorthands: ipaddr.js reads them (`127.1` is 127.0.0.1), the upstream does not.
  ['127.1', undefined],
  ['0x7f.0.0.1', undefined],
  ['0177.0.0.1', undefined],
  ['010.1.1.1', undefined],
  ['2130706433', undefined],
  // Zone ids: meaningful on this host only.
  ['fe80::1%eth0', undefined],
  ['fe80::1%1', undefined],
  // Brackets and ports (some proxies write them into X-Forwarded-For): refused, not guessed at.
  ['[2001:db8::1]', undefined],
  ['[2001:db8::1]:443', undefined],
  ['203.0.113.7:443', undefined],
  // Garbage.
  ['', undefined],
  ['   ', undefined],
  ['unknown', undefined],
  ['"203.0.113.7"', undefined],
  ['203.0.113', undefined],
  ['256.0.113.7', undefined],
  ['203.0.113.7.1', undefined],
  ['2001:db8::1::2', undefined],
  ['1:2:3:4:5:6:7:8:9', undefined],
  ['gggg::1', undefined],
  ['203.0.113.7, 198.51.100.9', undefined],
]

describe('normalizeAddress', () => {
  it.each(CANONICAL)('%j -> %j', (input, canonical) => {
    expect(normalizeAddress(input)).toBe(canonical)
  })

  it('is idempotent: a canonical form is its own canonical form', () => {
    for (const [, canonical] of CANONICAL) {
      if (canonical !== undefined) expect(normalizeAddress(canonical)).toBe(canonical)
    }
  })
})

const identityOf = (trustProxy: string | undefined, peer: string) =>
  createClientIdentity({ trustProxy, getSocketAddress: () => peer })

/** What the BFF answers for a request from `peer` carrying `forwardedFor`: the address, or the status. */
async function bffAddress(trustProxy: string | undefined, peer: string, forwardedFor?: string) {
  const identity = identityOf(trustProxy, peer)
  const app = new Hono()
  app.onError(onHttpError(createLogger({ level: 'silent' })))
  app.get('/', (c) => c.text(identity.address(c)))
  const res = await app.request(
    '/',
    forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } },
  )
  return res.status === 200 ? await res.text() : res.status
}

/** What `readVisitor` answers for the same Node request: the address, or 400 for its `VisitorError`. */
function visitorAddress(trustProxy: string | undefined, peer: string, forwardedFor?: string) {
  const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 test' }
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor
  try {
    return readVisitor(
      { headers, socket: { remoteAddress: peer } },
      trustProxy === undefined ? {} : { trustProxy },
    ).ipAddress
  } catch (error) {
    expect((error as Error).name).toBe('VisitorError')
    return 400
  }
}

const CIDRS = '10.0.0.0/8, 192.168.0.0/16'

/** [TRUST_PROXY, socket peer, X-Forwarded-For, the visitor's address or 400]. */
const CHAINS: Array<[string | undefined, string, string | undefined, string | 400]> = [
  // Nothing trusted: the socket is the client, whatever the header says.
  [undefined, '203.0.113.7', '6.6.6.6', '203.0.113.7'],
  [undefined, '::ffff:203.0.113.7', undefined, '203.0.113.7'],
  [undefined, '2001:DB8::7', '6.6.6.6', '2001:db8::7'],
  ['0', '203.0.113.7', '6.6.6.6', '203.0.113.7'],
  [undefined, 'fe80::1%eth0', undefined, 400],
  // A hop count: exactly that many proxies peeled from the right, the spoofed leftmost never taken.
  ['1', '10.0.0.1', '6.6.6.6, 198.51.100.9', '198.51.100.9'],
  ['1', '10.0.0.1', '6.6.6.6,198.51.100.9', '198.51.100.9'],
  ['1', '10.0.0.1', '198.51.100.9', '198.51.100.9'],
  ['1', '10.0.0.1', undefined, '10.0.0.1'],
  ['1', '10.0.0.1', '6.6.6.6, ::FFFF:198.51.100.9', '198.51.100.9'],
  ['1', '10.0.0.1', '6.6.6.6, 2001:0DB8:0::9', '2001:db8::9'],
  ['2', '10.0.0.1', '6.6.6.6, 198.51.100.9, 10.0.0.2', '198.51.100.9'],
  ['2', '10.0.0.1', '6.6.6.6, 198.51.100.9, 6.6.6.7', '198.51.100.9'],
  // A chain shorter than the hops: the furthest address there is.
  ['3', '10.0.0.1', '198.51.100.9, 10.0.0.2', '198.51.100.9'],
  // Empty entries are not hops.
  ['1', '10.0.0.1', '6.6.6.6, , 198.51.100.9', '198.51.100.9'],
  ['1', '10.0.0.1', '198.51.100.9,', '198.51.100.9'],
  // CIDRs: the rightmost entry outside them; a peer outside them is the client and its header ignored.
  [CIDRS, '10.0.0.1', '6.6.6.6, 198.51.100.9, 192.168.1.1', '198.51.100.9'],
  [CIDRS, '10.0.0.1', '6.6.6.6, 198.51.100.9, ::ffff:192.168.1.1', '198.51.100.9'],
  [CIDRS, '::ffff:10.0.0.1', '6.6.6.6, 198.51.100.9', '198.51.100.9'],
  [CIDRS, '203.0.113.7', '6.6.6.6, 198.51.100.9', '203.0.113.7'],
  [CIDRS, '10.0.0.1', '6.6.6.6, 198.51.100.9, 10.9.9.9, 10.8.8.8', '198.51.100.9'],
  [CIDRS, '10.0.0.1', '10.0.0.3, 10.0.0.2', '10.0.0.3'],
  ['2001:db8:a::/48', '2001:DB8:A::1', '6.6.6.6, 2001:db8:b::9, 2001:db8:a::2', '2001:db8:b::9'],
  // `loopback`: 127.0.0.0/8 and ::1, mapped or not.
  ['loopback', '127.0.0.1', '6.6.6.6, 198.51.100.9', '198.51.100.9'],
  ['loopback', '::1', '6.6.6.6, 198.51.100.9', '198.51.100.9'],
  ['loopback', '::ffff:127.0.0.1', '6.6.6.6, 198.51.100.9', '198.51.100.9'],
  ['loopback', '127.0.0.2', '6.6.6.6, 198.51.100.9, 127.0.0.1', '198.51.100.9'],
  ['loopback', '10.0.0.1', '6.6.6.6, 198.51.100.9', '10.0.0.1'],
  ['loopback, 10.0.0.0/8', '10.0.0.1', '6.6.6.6, 198.51.100.9, 127.0.0.1', '198.51.100.9'],
  ['uniquelocal', 'fd00::1', '6.6.6.6, 198.51.100.9', '198.51.100.9'],
  // The entry after the trusted proxies must be an address: 400, never a guess at a neighbour.
  ['1', '10.0.0.1', '198.51.100.9, not-an-ip', 400],
  ['1', '10.0.0.1', '198.51.100.9:443', 400],
  ['1', '10.0.0.1', '[2001:db8::9]:443', 400],
  ['1', '10.0.0.1', '198.51.100', 400],
  ['1', '10.0.0.1', '127.1', 400],
  ['1', '10.0.0.1', 'fe80::9%eth0', 400],
  ['1', '10.0.0.1', '"198.51.100.9"', 400],
  [CIDRS, '10.0.0.1', '198.51.100.9, unknown', 400],
  [CIDRS, '10.0.0.1', '198.51.100.9, unknown, 10.0.0.2', 400],
]

describe('the trusted-proxy walk', () => {
  it.each(CHAINS)(
    'TRUST_PROXY=%j, peer %j, X-Forwarded-For %j -> %j (BFF)',
    async (trust, peer, xff, expected) => {
      expect(await bffAddress(trust, peer, xff)).toBe(expected)
    },
  )

  it.each(CHAINS)(
    'TRUST_PROXY=%j, peer %j, X-Forwarded-For %j -> %j (readVisitor)',
    (trust, peer, xff, expected) => {
      expect(visitorAddress(trust, peer, xff)).toBe(expected)
    },
  )

  // A web Request or Next.js `headers()` has no socket: the platform's edge is an unseen trusted hop 0, and
  // readVisitor walks X-Forwarded-For itself. It must pick what the BFF picks behind a trusted peer.
  it.each(
    CHAINS.filter(
      ([trust, peer, xff]) => trust !== undefined && xff !== undefined && compileTrust(trust)?.(peer, 0),
    ),
  )(
    'TRUST_PROXY=%j, trusted peer %j, X-Forwarded-For %j -> %j (readVisitor without a socket)',
    (trust, _peer, xff, expected) => {
      const headers = new Headers({ 'user-agent': 'Mozilla/5.0 test', 'x-forwarded-for': xff as string })
      let answer: string | 400
      try {
        answer = readVisitor(headers, { trustProxy: trust as string }).ipAddress
      } catch (error) {
        expect((error as Error).name).toBe('VisitorError')
        answer = 400
      }
      expect(answer).toBe(expected)
    },
  )
})

/** A stand-in for `http.Server`: the cap only listens for `connection`. */
function cappedServer(maxPerIp: number, exempt?: (address: string) => boolean) {
  const server = new EventEmitter()
  const open = capConnectionsPerIp(server as unknown as Server, { maxPerIp, ...(exempt ? { exempt } : {}) })
  const connect = (remoteAddress: string) => {
    const socket = Object.assign(new EventEmitter(), { remoteAddress, destroy: vi.fn() })
    server.emit('connection', socket as unknown as Socket)
    return { destroyed: () => socket.destroy.mock.calls.length > 0, close: () => socket.emit('close') }
  }
  return { open, connect }
}

/** How `src/server/start-server.ts` exempts trusted proxies from the cap: the peer is hop 0. */
function exemptUnder(trustProxy: string) {
  const trust = compileTrust(trustProxy)
  return trust && ((address: string) => trust(address, 0))
}

describe('the connection cap keys a visitor as the BFF does', () => {
  it.each(CANONICAL.filter(([input, canonical]) => canonical !== undefined && input.trim() === input))(
    'a socket from %j counts under the BFF address %j',
    async (peer, canonical) => {
      const { open, connect } = cappedServer(10)
      connect(peer)
      expect([...open.keys()]).toEqual([canonical])
      expect(await bffAddress(undefined, peer)).toBe(canonical)
    },
  )

  it('counts every spelling of one client together, and frees a slot when a socket closes', () => {
    const { open, connect } = cappedServer(3)
    const first = connect('203.0.113.7')
    expect(connect('::ffff:203.0.113.7').destroyed()).toBe(false)
    expect(connect('::FFFF:cb00:7107').destroyed()).toBe(false)
    expect(connect('0:0:0:0:0:ffff:203.0.113.7').destroyed()).toBe(true)
    expect(open.get('203.0.113.7')).toBe(3)
    first.close()
    expect(open.get('203.0.113.7')).toBe(2)
    expect(connect('203.0.113.7').destroyed()).toBe(false)

    connect('2001:DB8::1')
    expect(connect('2001:db8:0:0:0:0:0:1').destroyed()).toBe(false)
    expect(connect('2001:0db8::0001').destroyed()).toBe(false)
    expect(connect('2001:db8::1').destroyed()).toBe(true)
    expect(connect('2001:db8::2').destroyed()).toBe(false)
  })

  it('still caps a peer the BFF cannot read (a zone id), under its raw text', async () => {
    const { open, connect } = cappedServer(1)
    connect('fe80::1%eth0')
    expect(connect('fe80::1%eth0').destroyed()).toBe(true)
    expect(connect('fe80::1%eth1').destroyed()).toBe(false)
    expect([...open.keys()]).toEqual(['fe80::1%eth0', 'fe80::1%eth1'])
    expect(await bffAddress(undefined, 'fe80::1%eth0')).toBe(400)
  })

  it.each([
    ['loopback', '127.0.0.1', true],
    ['loopback', '::1', true],
    ['loopback', '::ffff:127.0.0.1', true],
    ['loopback', '10.0.0.1', false],
    [CIDRS, '10.0.0.1', true],
    [CIDRS, '::ffff:10.0.0.1', true],
    [CIDRS, '::ffff:a00:1', true],
    [CIDRS, '192.168.255.1', true],
    [CIDRS, '203.0.113.7', false],
    [CIDRS, '::ffff:203.0.113.7', false],
    ['2001:db8:a::/48', '2001:DB8:A::1', true],
    ['2001:db8:a::/48', '2001:db8:b::1', false],
    ['1', '203.0.113.7', true],
  ])(
    'TRUST_PROXY=%j: peer %j is exempt from the cap (%j) exactly when the BFF trusts it as a proxy',
    async (trust, peer, exempt) => {
      const { open, connect } = cappedServer(1, exemptUnder(trust))
      connect(peer)
      expect(connect(peer).destroyed()).toBe(!exempt)
      expect(open.size).toBe(exempt ? 0 : 1)
      // The BFF follows X-Forwarded-For only from a trusted peer.
      expect(await bffAddress(trust, peer, '198.51.100.9')).toBe(
        exempt ? '198.51.100.9' : normalizeAddress(peer),
      )
    },
  )
})
