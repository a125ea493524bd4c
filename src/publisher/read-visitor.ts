/**
 * @module `readVisitor(source, options)`: the visitor's IP address and user agent from the request a
 * publisher's server is handling (a Node `IncomingMessage`, a web `Request`, or Next.js `headers()`), under
 * the same trusted-proxy rules as the BFF (`TRUST_PROXY`): the rightmost `X-Forwarded-For` entry that is not
 * a trusted proxy, never the leftmost one a browser can write. The result goes to `createServerSearch`.
 */
import type { SessionInformation } from '../contract/offer-search.ts'
import { addressBehindProxies, compileTrust, normalizeAddress } from '../http/client-address.ts'

interface HeadersLike {
  get(name: string): string | null
}
interface NodeIncomingLike {
  headers: Record<string, string | string[] | undefined>
  socket?: { remoteAddress?: string } | null
}
export type VisitorSource = HeadersLike | { headers: HeadersLike } | NodeIncomingLike

export interface ReadVisitorOptions {
  /**
   * Same syntax as `TRUST_PROXY`: a hop count (`1`) or CIDRs / `loopback` / `uniquelocal`, comma-separated.
   * The proxies between the visitor and this code, never more (README, "Which trustProxy"): one too many
   * believes an `X-Forwarded-For` entry the visitor wrote. With nothing in front of `next start`, `headers()`
   * holds no trustworthy address at all: Next.js copies the socket address into `X-Forwarded-For` only when
   * the request has none.
   */
  trustProxy?: string | number
  /**
   * The TCP peer. Taken from a Node request's socket; a web `Request` or `headers()` carries none, so there
   * the platform's edge proxy is the first hop and `trustProxy` must describe the proxies behind it.
   */
  remoteAddress?: string
}

export class VisitorError extends Error {
  override name = 'VisitorError'
}

export function readVisitor(source: VisitorSource, options: ReadVisitorOptions = {}): SessionInformation {
  const { header, socketAddress } = accessors(source)
  const trust = compileTrust(options.trustProxy)
  const peer = options.remoteAddress ?? socketAddress
  if (peer === undefined && !trust) {
    throw new VisitorError(
      'readVisitor: this request carries no socket address; pass { remoteAddress }, or set { trustProxy } ' +
        'to the proxies in front of this server (e.g. 1 for one edge proxy), as TRUST_PROXY for the BFF',
    )
  }
  // With no socket address, the unseen peer is the platform's edge (hop 0, trusted).
  const chosen = trust ? addressBehindProxies(peer, header('x-forwarded-for') ?? '', trust) : peer
  const ipAddress = chosen === undefined ? undefined : normalizeAddress(chosen)
  if (ipAddress === undefined) {
    throw new VisitorError(
      'readVisitor: could not read the visitor’s IP address: the X-Forwarded-For entry after the trusted ' +
        'proxies is missing or not an IP address (check trustProxy against your proxy chain)',
    )
  }
  const userAgent = header('user-agent')?.trim() ?? ''
  if (userAgent === '') {
    throw new VisitorError(
      'readVisitor: the request has no User-Agent header; pass the page request, not your own',
    )
  }
  return { ipAddress, userAgent }
}

function accessors(source: VisitorSource): {
  header: (name: string) => string | undefined
  socketAddress: string | undefined
} {
  if (typeof (source as HeadersLike).get === 'function') {
    return { header: (name) => (source as HeadersLike).get(name) ?? undefined, socketAddress: undefined }
  }
  const headers = (source as { headers: unknown }).headers
  if (headers && typeof (headers as HeadersLike).get === 'function') {
    return { header: (name) => (headers as HeadersLike).get(name) ?? undefined, socketAddress: undefined }
  }
  const node = source as NodeIncomingLike
  return {
    header: (name) => {
      const value = node.headers[name]
      return Array.isArray(value) ? value.join(', ') : value
    },
    socketAddress: node.socket?.remoteAddress,
  }
}
