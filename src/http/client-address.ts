/**
 * @module The client's address behind proxies, one rule for every server that reads it: the BFF's live
 * requests (`client-identity.ts`) and a publisher's own server (`readVisitor`,
 * src/publisher/read-visitor.ts). `TRUST_PROXY` compiles to a trust function; the `X-Forwarded-For` walk
 * takes the rightmost entry that is not a trusted proxy (the leftmost is whatever the browser chose to
 * send); addresses are canonicalized as the upstream takes them.
 */
import ipaddr from 'ipaddr.js'
import proxyaddr from 'proxy-addr'
import { ipAddress as ipAddressSchema } from '../contract/common.ts'

type TrustFn = (address: string, hop: number) => boolean

/**
 * `TRUST_PROXY` (and `readVisitor`'s `trustProxy`) read once, by this one parser: a hop count, or IP
 * addresses, CIDRs and proxy-addr's keywords (`loopback`, `linklocal`, `uniquelocal`), comma-separated.
 * Throws proxy-addr's TypeError naming the entry it cannot read (`invalid IP address: 999.1.1.1`).
 */
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

/** Why a `TRUST_PROXY` value cannot be read, naming the entry; undefined when `compileTrust` takes it. */
export function trustProxyProblem(trustProxy: string): string | undefined {
  try {
    compileTrust(trustProxy)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
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
