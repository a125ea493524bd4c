/**
 * @module Per-IP cap on open TCP connections for a Node server: one client holding thousands of idle
 * sockets must not exhaust the process's descriptors for everyone else. Connections past the cap are
 * closed on arrival, before any byte is read. Trusted proxies (`TRUST_PROXY`) are exempt: every visitor
 * behind them shares their address, and they bound their own connections.
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { normalizeAddress } from '../http/client-address.ts'

export interface ConnectionCapOptions {
  maxPerIp: number
  /** True for peers the cap does not apply to (trusted proxies). */
  exempt?: (address: string) => boolean
  /** Called for each refused connection (a rate-limited log line, a metric). */
  onRefused?: (address: string) => void
}

/** Watches `server`'s connections; returns how many sockets each address holds (for tests and metrics). */
export function capConnectionsPerIp(server: Server, options: ConnectionCapOptions): Map<string, number> {
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const address = canonical(socket.remoteAddress)
    if (address === undefined || options.exempt?.(address)) return
    const count = (open.get(address) ?? 0) + 1
    if (count > options.maxPerIp) {
      options.onRefused?.(address)
      socket.destroy()
      return
    }
    open.set(address, count)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
  return open
}

/** `::ffff:203.0.113.7` and `203.0.113.7` are one client: the BFF's one canonical form. */
function canonical(address: string | undefined): string | undefined {
  return address === undefined ? undefined : (normalizeAddress(address) ?? address)
}
