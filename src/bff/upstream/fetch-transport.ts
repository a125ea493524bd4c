/**
 * @module The upstream transport on global `fetch`, for runtimes without sockets (workers). One deadline
 * covers an attempt, body included: `AbortSignal.timeout`, the runtime's own, as undici's timeouts are.
 */
import { Readable } from 'node:stream'
import type { ReadableStream } from 'node:stream/web'
import { readCappedBody } from '../read-capped-body.ts'
import { refuseOversized, type Transport } from './transport.ts'

export function createFetchTransport(origin: string, timeoutMs: number, maxBodyBytes: number): Transport {
  return {
    async send(attempt, headers) {
      const response = await fetch(`${origin}${attempt.path}`, {
        method: attempt.method,
        headers,
        body: attempt.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = response.body
        ? await readCappedBody(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), maxBodyBytes, {
            contentLength: response.headers.get('content-length') ?? undefined,
          }).catch(refuseOversized(maxBodyBytes))
        : ''
      return { status: response.status, header: (name) => response.headers.get(name) ?? undefined, text }
    },
    close: async () => {},
  }
}
