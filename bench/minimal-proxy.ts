/**
 * @module The baseline of the BFF benches: the least a proxy can do (map the two routes, add the upstream's
 * headers, hand the answer back), on node:http and an undici pool, with no limits, logs or checks. `GET /lag`
 * answers its event-loop lag p99 since the last read, measured as prom-client measures the BFF's.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Pool } from 'undici'

export async function minimalProxy(
  upstream: string,
  { token, apiVersion }: { token: string; apiVersion: string },
): Promise<string> {
  const pool = new Pool(new URL(upstream).origin, {
    connections: 128,
    pipelining: 1,
    keepAliveTimeout: 10_000,
  })
  const paths: Record<string, string> = {
    'GET /api/issuers': '/test/leads/autoInsurance/issuers',
    'POST /api/offer-searches': '/test/offerSearches/',
  }
  // Its event-loop lag, measured as prom-client measures the BFF's (10 ms resolution, reset on each read): the
  // floor this machine sets with every process sharing its two cores.
  const lag = monitorEventLoopDelay({ resolution: 10 })
  lag.enable()
  const server = createServer((req, res) => {
    if (req.url === '/lag') {
      res.end(JSON.stringify({ p99: lag.percentile(99) / 1e6 }))
      lag.reset()
      return
    }
    const path = paths[`${req.method} ${req.url}`]
    if (!path) {
      res.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      pool
        .request({
          method: req.method as 'GET' | 'POST',
          path,
          headers: {
            authorization: `Bearer ${token}`,
            'api-version': apiVersion,
            'content-type': 'application/json',
          },
          body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
        })
        .then(async (answer) => {
          const body = Buffer.from(await answer.body.arrayBuffer())
          res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(body)
        })
        .catch(() => res.writeHead(502).end())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
