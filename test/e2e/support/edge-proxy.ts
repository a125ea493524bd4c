/**
 * @module One reverse proxy in front of an app server, as a platform's edge is: it forwards every request
 * and appends the address it saw the visitor at to `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`),
 * keeping whatever the visitor sent before it. Browsers here connect from loopback, which the BFF rightly
 * refuses as a visitor address outside sandbox mode, so the edge reports `visitorAddress` (a public one)
 * for every visitor: the part of the internet a loopback test cannot have.
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface EdgeProxy {
  url: string
  close(): Promise<void>
}

/** `target` is read per request: the app behind may start after its edge (it needs the edge's URL). */
export function startEdgeProxy(target: () => string, visitorAddress: string): Promise<EdgeProxy> {
  const server = createServer((incoming, outgoing) => {
    const upstream = new URL(target())
    const forwarded = incoming.headers['x-forwarded-for']
    const headers = {
      ...incoming.headers,
      'x-forwarded-for': forwarded ? `${forwarded}, ${visitorAddress}` : visitorAddress,
    }
    const proxied = request(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    proxied.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502)
      outgoing.end()
    })
    incoming.pipe(proxied)
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}
