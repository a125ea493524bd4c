/**
 * @module Client identity: the visitor's IP address and user agent from the live request, which docs/offer-search-api.md
 * says carriers use for underwriting and fraud checks ("must be taken from the live end-user session").
 * Without `TRUST_PROXY` the socket address is the client; with it, the rightmost `X-Forwarded-For` entry
 * that is not a trusted proxy (the leftmost is whatever the browser chose to send).
 */
import type { Context } from 'hono'
import type { SessionInformation } from '../contract/offer-search.ts'
import { addressBehindProxies, compileTrust, normalizeAddress } from './client-address.ts'
import { httpError } from './errors.ts'
import type { ClientIdentityFn } from './request-services.ts'

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

/**
 * The BFF's `ClientIdentityFn`, plus `address(c)`: the client's address alone (through trusted proxies), for
 * limits that must not need a User-Agent.
 */
export function createClientIdentity(
  options: ClientIdentityOptions = {},
): ClientIdentityFn & { address(c: Context): string; fromTrustedProxy(c: Context): boolean } {
  const trust = compileTrust(options.trustProxy)
  const socketAddress = options.getSocketAddress ?? nodeSocketAddress
  // Asked by the limits, the identity and the logs of one request: worked out once per request.
  const known = new WeakMap<Request, string>()
  const address = (c: Context): string => {
    const remembered = known.get(c.req.raw)
    if (remembered !== undefined) return remembered
    const found = addressOf(c)
    known.set(c.req.raw, found)
    return found
  }
  const addressOf = (c: Context): string => {
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
