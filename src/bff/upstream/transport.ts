/**
 * @module The seam between the upstream client and a transport (undici-transport.ts, fetch-transport.ts):
 * one request out, the status, headers and capped body text back.
 */
import { BodyTooLargeError } from '../read-capped-body.ts'
import { UpstreamError } from './upstream-error.ts'

export interface RawResponse {
  status: number
  header(name: string): string | undefined
  text: string
}

export interface Attempt {
  method: 'GET' | 'POST'
  path: string
  body?: string
}

export interface Transport {
  /** Rejects with an `UpstreamError` for a broken answer, with the transport's own error otherwise. */
  send(attempt: Attempt, headers: Record<string, string>): Promise<RawResponse>
  close(): Promise<void>
}

/** A body past the cap is the upstream's fault: refused as malformed, as any other broken reply. */
export function refuseOversized(maxBytes: number) {
  return (error: unknown): never => {
    if (error instanceof BodyTooLargeError) {
      throw new UpstreamError('malformed', `upstream body larger than ${maxBytes} bytes`)
    }
    throw error
  }
}
