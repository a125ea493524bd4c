/**
 * @module The one loopback-host predicate (partner contract, conformance kit): a host counts as loopback only
 * when it is an IP literal in 127.0.0.0/8 or `::1`, or the name `localhost` / `*.localhost` (RFC 6761 reserves
 * both for the machine itself). A name that merely starts with `127.` (`127.attacker.com`) is a public host.
 * Browser-safe and dependency-free: the contract imports nothing of ours.
 */

/** Dotted-quad IPv4 with each octet 0-255 and no leading zeros (no `0177.0.0.1` octal spellings). */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/** True for a hostname (as `URL.hostname` gives it, brackets allowed) that names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true
  // IPv4-mapped 127.x.y.z, as `URL` spells it (`[::ffff:7f00:1]`) or dotted.
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)) return true
  if (host.startsWith('::ffff:')) return isLoopbackHost(host.slice('::ffff:'.length))
  return IPV4.test(host) && host.startsWith('127.')
}
