/**
 * @module Runs the reference partner on a real port (`npx offer-widget partner`, tests on loopback) and
 * hands back a handle that closes it, open connections included.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createReferencePartner, type ReferencePartnerOptions } from './reference-partner.ts'

export interface StartReferencePartnerOptions extends ReferencePartnerOptions {
  /** 0 picks a free port. */
  port?: number
  /** Loopback by default: expose it deliberately (`0.0.0.0`), it takes SSNs. */
  hostname?: string
}

export interface RunningPartner {
  /** Base URL, e.g. `http://127.0.0.1:8788`; leads go to `${url}/leads` or `${url}/`. */
  url: string
  port: number
  close(): Promise<void>
}

export function startReferencePartner(options: StartReferencePartnerOptions = {}): Promise<RunningPartner> {
  const { port = 0, hostname = '127.0.0.1', ...partnerOptions } = options
  const app = createReferencePartner(partnerOptions)
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()))
            if ('closeAllConnections' in server) server.closeAllConnections()
          }),
      })
    })
    server.once('error', reject)
  })
}
