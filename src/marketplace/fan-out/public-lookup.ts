/**
 * @module Partner hosts judged by where they resolve, not by their name (issue 44: `127.0.0.1.nip.io`,
 * `localtest.me` and `lvh.me` are public names of loopback addresses, and passed the registry's name check).
 * Outside sandbox mode the partner dispatcher connects through this lookup: every address a name resolves to
 * must be public (the same predicate as the registry's, `contract/network-host.ts`), or the connection fails
 * with `ENOTPUBLIC` before a byte of the lead is sent. Checked at each connection, so a name that changes
 * its answer later (DNS rebinding) is refused too. IP literals never reach a lookup; the registry refuses
 * private ones by name.
 */
import { type LookupAddress, type LookupAllOptions, lookup as systemLookup } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { hostReach } from '../../contract/network-host.ts'

/** `dns.lookup` with `all: true`, or a stand-in for tests. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void

const resolveWithSystem: ResolveAll = (hostname, options, callback) =>
  systemLookup(hostname, options, callback)

/** A `lookup` for `net.connect` / undici's `connect` option that yields public addresses only. */
export function publicOnlyLookup(resolve: ResolveAll = resolveWithSystem): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const refused = addresses.find((entry) => hostReach(entry.address) !== 'public')
      if (refused !== undefined || addresses.length === 0) {
        const reason = refused ? `resolves to ${refused.address}` : 'resolves to no address'
        const failure: NodeJS.ErrnoException = new Error(
          `partner host ${hostname} ${reason}, not a public address: outside sandbox mode leads go only to public hosts`,
        )
        failure.code = 'ENOTPUBLIC'
        return callback(failure, '', 0)
      }
      // `net.connect` asks for every address (happy eyeballs) or for one.
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses)
      const [first] = addresses as [LookupAddress]
      return callback(null, first.address, first.family)
    })
  }
}
