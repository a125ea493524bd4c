/**
 * @module A TCP proxy on loopback in front of a real service (PostgreSQL, Redis), which a fault test can cut
 * (the service gone), partition (connected, silent) and restore on the same port. `cut()` resets every
 * connection and every new one, `partition()` keeps them open but forwards nothing (holding what was sent,
 * or dropping it), and `restore()` forwards again. It counts the bytes clients send, so a test can tell
 * whether anything still tries the service.
 */
import type { AddressInfo } from 'node:net'
import { createConnection, createServer, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  /** `serviceUrl` (`postgres://…`, `redis://…`) with its host and port replaced by the proxy's. */
  urlFor(serviceUrl: string): string
  /** Bytes received from clients since the start, forwarded or not. */
  readonly bytesIn: number
  /**
   * The service is gone: every connection is reset, and so is every new one as soon as it is accepted,
   * until `restore`. The port stays bound, so `restore` cannot lose it to another process.
   */
  cut(): void
  /**
   * A network partition: connections stay open (new ones are accepted) and nothing is forwarded either way.
   * What is sent meanwhile is held and delivered on `restore`, as TCP's retransmissions would; with `drop`
   * it is discarded, so a connection used meanwhile never answers again and only a client that drops it
   * recovers.
   */
  partition(options?: { drop?: boolean }): void
  /** Forwards again, what a partition held first. */
  restore(): void
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'open' | 'cut' | 'hold' | 'drop' = 'open'
  let bytesIn = 0
  let held: Array<() => void> = []
  const pairs = new Set<{ client: Socket; upstream: Socket }>()
  const forward = (to: Socket, chunk: Buffer) => {
    if (mode === 'open') to.write(chunk)
    else if (mode === 'hold') held.push(() => to.write(chunk))
  }
  const server = createServer((client) => {
    client.on('error', () => {})
    if (mode === 'cut') {
      client.resetAndDestroy()
      return
    }
    const upstream = createConnection(target)
    const pair = { client, upstream }
    pairs.add(pair)
    client.on('data', (chunk: Buffer) => {
      bytesIn += chunk.length
      forward(upstream, chunk)
    })
    upstream.on('data', (chunk: Buffer) => forward(client, chunk))
    const drop = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    upstream.on('error', drop)
    client.on('close', drop)
    upstream.on('close', drop)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    urlFor(serviceUrl) {
      const url = new URL(serviceUrl)
      url.hostname = '127.0.0.1'
      url.port = String(port)
      return url.toString()
    },
    get bytesIn() {
      return bytesIn
    },
    cut() {
      mode = 'cut'
      held = []
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy()
        upstream.destroy()
      }
      pairs.clear()
    },
    partition({ drop = false } = {}) {
      mode = drop ? 'drop' : 'hold'
    },
    restore() {
      mode = 'open'
      for (const deliver of held.splice(0)) deliver()
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
