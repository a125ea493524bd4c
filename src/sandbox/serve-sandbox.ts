/**
 * @module Runs a sandbox on a real Node HTTP server (what `npm run sandbox` and the loopback tests use),
 * so the connection-reset fault can destroy a real socket.
 */
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { createSandbox } from './create-sandbox.ts'
import type { Sandbox, SandboxOptions } from './types.ts'

export interface ServeSandboxOptions extends SandboxOptions {
  /** 0 picks a free port. */
  port: number
  hostname?: string
}

export interface ServedSandbox {
  sandbox: Sandbox
  server: ServerType
  /** Origin the server listens on, e.g. `http://127.0.0.1:8787`; APIs are at `${url}/test` and `/production`. */
  url: string
  close(): Promise<void>
}

export function serveSandbox({
  port,
  hostname = '127.0.0.1',
  ...options
}: ServeSandboxOptions): Promise<ServedSandbox> {
  const sandbox = createSandbox(options)
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: sandbox.app.fetch, port, hostname }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        sandbox,
        server,
        url: `http://${host}:${info.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            if ('closeAllConnections' in server) server.closeAllConnections()
            server.close((error) => (error ? fail(error) : done()))
          }),
      })
    })
    server.once('error', reject)
  })
}
