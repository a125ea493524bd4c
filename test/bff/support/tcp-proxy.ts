/**
 * @module A TCP proxy on loopback in front of a real service (Redis here), which a fault test can cut (every
 * socket closed, the port refusing), partition (sockets stay open, nothing is forwarded) and restore on the
 * same port. Counts the bytes clients send, so a test can tell whether anything still tries the service.
 */
import { once } from 'node:events'
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  url(scheme: string): string
  /** Bytes received from clients since the start. */
  readonly bytesIn: number
  /** Closes every connection and stops listening: connecting is refused until `restore`. */
  cut(): Promise<void>
  /**
   * Keeps connections open but forwards nothing either way (a network partition); what was sent is held
   * and delivered on `restore`, as TCP's retransmissions would.
   */
  partition(): void
  /** Listens again on the same port and forwards again. */
  restore(): Promise<void>
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let bytesIn = 0
  let partitioned = false
  let server: Server
  const held: Array<() => void> = []
  const forward = (to: Socket, chunk: Buffer) => {
    if (partitioned) held.push(() => to.write(chunk))
    else to.write(chunk)
  }

  const listen = async (port: number) => {
    server = createServer((client) => {
      const upstream = createConnection(target)
      sockets.add(client)
      sockets.add(upstream)
      client.on('data', (chunk: Buffer) => {
        bytesIn += chunk.length
        forward(upstream, chunk)
      })
      upstream.on('data', (chunk: Buffer) => forward(client, chunk))
      const end = () => {
        client.destroy()
        upstream.destroy()
        sockets.delete(client)
        sockets.delete(upstream)
      }
      client.on('close', end)
      upstream.on('close', end)
      client.on('error', end)
      upstream.on('error', end)
    })
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    const address = server.address()
    return typeof address === 'object' && address ? address.port : port
  }

  const port = await listen(0)
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    await closed
  }

  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    get bytesIn() {
      return bytesIn
    },
    cut: stop,
    partition() {
      partitioned = true
    },
    async restore() {
      partitioned = false
      for (const deliver of held.splice(0)) deliver()
      if (!server.listening) await listen(port)
    },
    close: async () => {
      if (server.listening) await stop()
    },
  }
}
