/**
 * @module Lending partners as other companies' servers: each the partner kit's reference partner on its own
 * loopback port, recording the headers of every lead it receives (`traceparent` above all). A `holding`
 * partner keeps every lead unanswered until it is closed, so the BFF times it out at its window.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createReferencePartner } from '../../../src/partner-kit/index.ts'

export interface RecordingPartner {
  id: string
  url: string
  /** The headers of each lead received, lower-cased names. */
  received: Array<Record<string, string>>
  close(): Promise<void>
}

export async function startRecordingPartner(
  id: string,
  options: { holding?: boolean } = {},
): Promise<RecordingPartner> {
  const received: Array<Record<string, string>> = []
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const app = new Hono()
  app.use('*', async (c, next) => {
    if (c.req.method === 'POST') received.push(c.req.header())
    if (options.holding) await released
    await next()
  })
  app.route('/', createReferencePartner())
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    id,
    url: `http://127.0.0.1:${port}`,
    received,
    close() {
      release()
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        if ('closeAllConnections' in server) server.closeAllConnections()
      })
    },
  }
}
