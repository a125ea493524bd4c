/**
 * @module Partner hosts judged by where they resolve, not by their name, at each connection (so a name that
 * changes its answer later, DNS rebinding, is judged again), by the one predicate on where an address is
 * (`hostReach`, contract/network-host.ts). Outside sandbox mode every address a partner's name resolves to
 * must be public (`127.0.0.1.nip.io`, `localtest.me` and `lvh.me` are public names of loopback addresses):
 * the partner dispatcher connects through `publicOnlyLookup`, and fails with `ENOTPUBLIC`. In sandbox mode,
 * the mirror: every address must be this machine or a private network (`partnergw` or `partner.internal`
 * may point at the public internet), or the call fails with `ENOTPRIVATE`; a sandbox partner's call
 * connects to the address `sandboxOnlyLookup` allowed (`pinnedOrigin`). Either way, before a byte of the
 * lead is sent. IP literals never reach a lookup; the registry judges them by their address.
 */

import { type LookupAddress, type LookupAllOptions, lookup as systemLookup } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { isIP } from 'node:net'
import { type HostReach, hostReach } from '../../contract/network-host.ts'

/** `dns.lookup` with `all: true`, or a stand-in for tests. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void

const resolveWithSystem: ResolveAll = (hostname, options, callback) =>
  systemLookup(hostname, options, callback)

/** What one mode lets a partner's name resolve to, and how a refusal reads. */
interface ReachRule {
  allows(reach: HostReach): boolean
  code: string
  refusal(hostname: string, reason: string): string
}

const PUBLIC_ONLY: ReachRule = {
  allows: (reach) => reach === 'public',
  code: 'ENOTPUBLIC',
  refusal: (hostname, reason) =>
    `partner host ${hostname} ${reason}, not a public address: outside sandbox mode leads go only to public hosts`,
}

const SANDBOX_ONLY: ReachRule = {
  allows: (reach) => reach !== 'public',
  code: 'ENOTPRIVATE',
  refusal: (hostname, reason) =>
    `partner host ${hostname} ${reason}, a public address: sandbox mode sends leads only to partners on this machine or a private network; run in production mode (ENGINE_TOKEN, or BFF_MODE=production) to send real leads`,
}

/** A `lookup` for `net.connect` / undici's `connect` option that yields public addresses only. */
export function publicOnlyLookup(resolve: ResolveAll = resolveWithSystem): LookupFunction {
  return reachLookup(PUBLIC_ONLY, resolve)
}

/** The mirror, for sandbox mode: a `lookup` that yields loopback and private addresses only. */
export function sandboxOnlyLookup(resolve: ResolveAll = resolveWithSystem): LookupFunction {
  return reachLookup(SANDBOX_ONLY, resolve)
}

function reachLookup(rule: ReachRule, resolve: ResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const refused = addresses.find((entry) => !rule.allows(hostReach(entry.address)))
      if (refused !== undefined || addresses.length === 0) {
        const reason = refused ? `resolves to ${refused.address}` : 'resolves to no address'
        const failure: NodeJS.ErrnoException = new Error(rule.refusal(hostname, reason))
        failure.code = rule.code
        return callback(failure, '', 0)
      }
      // `net.connect` asks for every address (happy eyeballs) or for one.
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses)
      const [first] = addresses as [LookupAddress]
      return callback(null, first.address, first.family)
    })
  }
}

/** Where a request goes once its host name is pinned to the address a lookup allowed. */
export interface PinnedOrigin {
  /** The origin with the address in place of the name, e.g. `http://127.0.0.1:8080`, `https://[::1]`. */
  origin: string
  /** The `Host` header: the name (and port) the endpoint was written with. */
  host: string
  /** The TLS server name (SNI and the certificate's check): the endpoint's host name. */
  servername: string
}

/**
 * Resolves `origin`'s host name through `lookup` and answers the origin to connect to, so the address the
 * connection is made to is the one the lookup judged. Undefined for an IP literal: there is nothing to
 * resolve. Rejects with the lookup's error (`ENOTPRIVATE`, `ENOTFOUND`, ...).
 */
export function pinnedOrigin(origin: string, lookup: LookupFunction): Promise<PinnedOrigin | undefined> {
  const url = new URL(origin)
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(hostname) !== 0) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: false }, (error, address, family) => {
      if (error) return reject(error)
      const at = family === 6 ? `[${address}]` : (address as string)
      resolve({
        origin: `${url.protocol}//${at}${url.port === '' ? '' : `:${url.port}`}`,
        host: url.host,
        servername: hostname,
      })
    })
  })
}
