/**
 * @module Client identity: the visitor's IP address and user agent from the live request, which docs/offer-search-api.md
 * says carriers use for underwriting and fraud checks ("must be taken from the live end-user session").
 * Without `TRUST_PROXY` the socket address is the client; with it, the rightmost `X-Forwarded-For` entry
 * that is not a trusted proxy (the leftmost is whatever the browser chose to send).
 */
import type { Context } from 'hono'
import ipaddr from 'ipaddr.js'
import proxyaddr from 'proxy-addr'
import { ipAddress as ipAddressSchema } from '../contract/common.ts'
import type { SessionInformation } from '../contract/offer-search.ts'
import { httpError } from '../http/errors.ts'
import type { ClientIdentityFn } from '../http/request-services.ts'

/** Returns the TCP peer address; runtime-specific, so it is an option of `createBff`. */
export type SocketAddressFn = (c: Context) => string | undefined

export interface ClientIdentityOptions {
  /** `TRUST_PROXY`: a hop count (`1`), or a comma-separated list of CIDRs / `loopback` / `uniquelocal`. */
  trustProxy?: string | number | undefined
  getSocketAddress?: SocketAddressFn
}

/** Node (`@hono/node-server`): the socket of the incoming message. Other runtimes pass their own. */
export const nodeSocketAddress: SocketAddressFn = (c) => {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined
  return env?.incoming?.socket?.remoteAddress
}

type TrustFn = (address: string, hop: number) => boolean

export function compileTrust(trustProxy: string | number | undefined): TrustFn | undefined {
  if (trustProxy === undefined || trustProxy === '') return undefined
  const text = String(trustProxy).trim()
  if (/^\d+$/.test(text)) {
    const hops = Number(text)
    // Hop 0 is the socket peer; trusting n hops means the client is the (n+1)-th address from the right.
    return hops === 0 ? undefined : (_address, hop) => hop < hops
  }
  return proxyaddr.compile(
    text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
}

/**
 * The BFF's `ClientIdentityFn`, plus `address(c)`: the client's address alone (through trusted proxies), for
 * limits that must not need a User-Agent.
 */
export function createClientIdentity(
  options: ClientIdentityOptions = {},
): ClientIdentityFn & { address(c: Context): string; fromTrustedProxy(c: Context): boolean } {
  const trust = compileTrust(options.trustProxy)
  const socketAddress = options.getSocketAddress ?? nodeSocketAddress
  const address = (c: Context): string => {
    const peer = socketAddress(c)
    if (peer === undefined || peer === '') {
      throw httpError(
        500,
        'internal',
        'The server cannot see the visitor address; configure getSocketAddress',
      )
    }
    const chosen = trust ? addressBehindProxies(peer, c.req.header('x-forwarded-for') ?? '', trust) : peer
    const ipAddress = chosen === undefined ? undefined : normalizeAddress(chosen)
    if (ipAddress === undefined) {
      throw httpError(400, 'bad_request', 'Could not determine the visitor IP address from X-Forwarded-For', {
        errors: [
          { field: 'X-Forwarded-For', reason: 'the entry after the trusted proxies is not an IP address' },
        ],
      })
    }
    return ipAddress
  }
  const clientIdentity = (c: Context): SessionInformation => {
    const ipAddress = address(c)
    const userAgent = c.req.header('user-agent') ?? ''
    if (userAgent.trim() === '') {
      throw httpError(400, 'bad_request', 'The User-Agent header is required', {
        errors: [{ field: 'User-Agent', reason: 'send the browser user agent' }],
      })
    }
    return { ipAddress, userAgent }
  }
  /** Whether the TCP peer itself is a trusted proxy: what may vouch for headers such as `traceparent`. */
  const fromTrustedProxy = (c: Context): boolean => {
    const peer = socketAddress(c)
    return trust !== undefined && peer !== undefined && peer !== '' && trust(peer, 0)
  }
  return Object.assign(clientIdentity, { address, fromTrustedProxy })
}

/**
 * The one `X-Forwarded-For` walk (proxy-addr's rule): from the nearest hop outwards, the first address that
 * is not a trusted proxy, or the farthest one when every hop is trusted. `peer` is the socket's address (hop
 * 0); undefined when the platform's edge proxy is the unseen hop 0, trusted by definition, so the walk starts
 * at the rightmost entry (hop 1). Undefined when there is no address to give.
 */
export function addressBehindProxies(
  peer: string | undefined,
  forwardedFor: string,
  trust: TrustFn,
): string | undefined {
  const forwarded = forwardedFor
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse()
  const hops = peer === undefined ? forwarded : [peer, ...forwarded]
  const firstHop = peer === undefined ? 1 : 0
  return hops.find((address, index) => index === hops.length - 1 || !trust(address, index + firstHop))
}

/**
 * An IPv6 address written with a dotted IPv4 tail, its last 32 bits in hex instead. ipaddr.js reads every
 * `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`), so the deprecated IPv4-compatible `::1.2.3.4` would become
 * the IPv4 visitor 1.2.3.4; RFC 4291 makes it `::102:304`. Called on an address the schema has accepted.
 */
function dottedTailAsHex(address: string): string {
  const tail = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address)
  if (!tail) return address
  const [a, b, c, d] = tail.slice(2).map(Number) as [number, number, number, number]
  return `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
}

/** Canonical text of an address; an IPv4-mapped IPv6 address becomes plain IPv4. */
export function normalizeAddress(address: string): string | undefined {
  const trimmed = address.trim()
  // ipaddr alone accepts inet_aton forms (`1.2.3`, `0x7f.1`) and zone ids; the upstream takes neither.
  if (!ipAddressSchema.safeParse(trimmed).success || !ipaddr.isValid(trimmed)) return undefined
  const text = ipaddr.process(dottedTailAsHex(trimmed)).toString()
  return ipAddressSchema.safeParse(text).success ? text : undefined
}
