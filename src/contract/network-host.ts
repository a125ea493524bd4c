/**
 * @module The one predicate on where a host is (docs/partner-interface.md#links-and-endpoints):
 * `loopback` (this machine: 127.0.0.0/8, `::1`, their IPv4-mapped and IPv4-compatible forms, `localhost`,
 * `*.localhost`), `local` (any other address or name that is not on the public internet: private,
 * link-local, CGNAT, reserved, multicast, NAT64/6to4/Teredo, single-label names, `.local`, `.internal`,
 * `.home.arpa`, numeric spellings that are no dotted quad) or `public`. Partner links, partner endpoints,
 * the partner kit's endpoint check and the server route's visitor address all ask it, so they cannot
 * disagree. The IP ranges are ipaddr.js's, not hand-written CIDR maths.
 */
import ipaddr from 'ipaddr.js'

export type HostReach = 'loopback' | 'local' | 'public'

/** Suffixes reserved for names that never resolve on the public internet (RFC 6762, RFC 8375, ICANN 2024). */
const LOCAL_SUFFIXES = ['.local', '.internal', '.home.arpa', '.localdomain', '.lan']

/** Where a hostname (as `URL.hostname` gives it, brackets allowed) or a bare IP address points. */
export function hostReach(hostname: string): HostReach {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (host === '') return 'local'
  if (host.includes(':')) return ipv6Reach(host)
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipv4Reach(ipaddr.IPv4.parse(host))
  // `0177.0.0.1`, `127.1`, `0x7f000001`: browsers read these as addresses, so they are never a public name;
  // nor loopback, since only the dotted quad `URL` produces is trusted as that.
  if (ipaddr.IPv4.isValid(host) || /^[0-9.]+$|(^|\.)(0x[0-9a-f]*|\d+)$/.test(host)) return 'local'
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback'
  if (!host.includes('.')) return 'local'
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'local'
  return 'public'
}

/** True for a host that names this machine: where the sandbox's simulated partners live. */
export function isLoopbackHost(hostname: string): boolean {
  return hostReach(hostname) === 'loopback'
}

/** True for an IP address (not a name) that is globally routable unicast: a real visitor's address. */
export function isPublicAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, '')
  if (!ipaddr.isValid(host)) return false
  return hostReach(host) === 'public'
}

function ipv4Reach(address: ipaddr.IPv4): HostReach {
  const range = address.range()
  if (range === 'loopback') return 'loopback'
  return range === 'unicast' ? 'public' : 'local'
}

function ipv6Reach(host: string): HostReach {
  if (!ipaddr.IPv6.isValid(host)) return 'local'
  const address = ipaddr.IPv6.parse(host)
  if (address.isIPv4MappedAddress()) return ipv4Reach(address.toIPv4Address())
  const parts = address.parts
  // IPv4-compatible `::a.b.c.d` (deprecated by RFC 4291, routed nowhere): loopback when the IPv4 address
  // it carries is (`::127.0.0.1`, which ipaddr.js calls unicast), else never public. `::` and `::1` are
  // judged below.
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1)) {
    const [high = 0, low = 0] = parts.slice(6)
    const carried = ipv4Reach(new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]))
    return carried === 'loopback' ? 'loopback' : 'local'
  }
  const range = address.range()
  if (range === 'loopback') return 'loopback'
  return range === 'unicast' ? 'public' : 'local'
}
