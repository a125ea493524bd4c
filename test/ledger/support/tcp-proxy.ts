/**
 * @module A TCP proxy in front of PostgreSQL that a fault test can cut: `cut()` resets every connection and
 * every new one (a database gone), `hang()` keeps sockets open but forwards nothing (a partition), and
 * `restore()` forwards again.
 */

import type { AddressInfo } from 'node:net'
import { createConnection, createServer, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string
  cut(): void
  hang(): void
  restore(): void
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'open' | 'cut' | 'hang' = 'open'
  const pairs = new Set<{ client: Socket; upstream: Socket }>()
  const server = createServer((client) => {
    client.on('error', () => {})
    if (mode === 'cut') {
      client.resetAndDestroy()
      return
    }
    const upstream = createConnection(target)
    upstream.on('error', () => client.destroy())
    const pair = { client, upstream }
    pairs.add(pair)
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (mode === 'open') to.write(chunk)
      })
    forward(client, upstream)
    forward(upstream, client)
    const drop = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('close', drop)
    upstream.on('close', drop)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl)
      url.hostname = '127.0.0.1'
      url.port = String(port)
      return url.toString()
    },
    cut() {
      mode = 'cut'
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy()
        upstream.destroy()
      }
      pairs.clear()
    },
    hang() {
      mode = 'hang'
    },
    restore() {
      mode = 'open'
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy()
        upstream.destroy()
      }
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
