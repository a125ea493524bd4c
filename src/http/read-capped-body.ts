/**
 * @module The one capped body reader of the server, for every body another party sends us (the offer
 * search API's replies, partners' replies, leads sent to the simulated partners): a body is refused as soon
 * as its declared `content-length` or its bytes counted so far pass the cap, and its transfer is stopped
 * there, so a peer can never make us hold more than the cap.
 */
import type { Readable } from 'node:stream'

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError'
  constructor(
    /** The cap, in bytes. */
    readonly limit: number,
    /** The declared `content-length`, when that is what was refused. */
    readonly declared?: number,
    /** What the body is, for the message ("reply", "lead"). */
    what = 'body',
  ) {
    super(
      declared === undefined
        ? `${what} exceeds the ${limit}-byte limit`
        : `${what} of ${declared} bytes exceeds the ${limit}-byte limit`,
    )
  }
}

/** A body collected chunk by chunk, for readers that are handed chunks (an undici dispatch handler). */
export interface CappedBody {
  /** Checks a declared `content-length` (a header value, any type); the refusal when it is over the cap. */
  declare(contentLength: unknown): BodyTooLargeError | undefined
  /** Keeps `chunk`; the refusal, and the chunk not kept, when the body is now over the cap. */
  push(chunk: Buffer): BodyTooLargeError | undefined
  /** Bytes kept so far. */
  readonly size: number
  /** The bytes kept, as UTF-8. */
  text(): string
}

export interface CappedBodyOptions {
  /** What the body is, for the refusal's message; "body" by default. */
  what?: string
}

export function createCappedBody(limit: number, options: CappedBodyOptions = {}): CappedBody {
  const chunks: Buffer[] = []
  let size = 0
  return {
    declare(contentLength) {
      const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength)
      // An absent or unreadable header declares nothing: the count below still holds the cap.
      if (contentLength === undefined || !Number.isFinite(declared) || declared <= limit) return undefined
      return new BodyTooLargeError(limit, declared, options.what)
    },
    push(chunk) {
      if (size + chunk.length > limit) return new BodyTooLargeError(limit, undefined, options.what)
      size += chunk.length
      chunks.push(chunk)
      return undefined
    },
    get size() {
      return size
    },
    text: () => Buffer.concat(chunks, size).toString('utf8'),
  }
}

export interface ReadCappedBodyOptions extends CappedBodyOptions {
  /** The body's declared length (its `content-length` header), refused before any byte is read. */
  contentLength?: unknown
}

/**
 * `stream` as UTF-8 text, or a `BodyTooLargeError` once it passes `limit`, the stream then destroyed so
 * nothing more is transferred. Event listeners rather than `for await`: an async iterator costs more per
 * body than the few chunks of a rate table or a lead are worth.
 */
export function readCappedBody(
  stream: Readable,
  limit: number,
  options: ReadCappedBodyOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const body = createCappedBody(limit, options)
    const refuse = (error: BodyTooLargeError) => {
      stream.off('data', onData)
      stream.destroy()
      reject(error)
    }
    const onData = (chunk: Buffer | string) => {
      const refused = body.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
      if (refused) refuse(refused)
    }
    const declared = body.declare(options.contentLength)
    if (declared) return refuse(declared)
    stream.on('data', onData)
    stream.once('end', () => resolve(body.text()))
    stream.once('error', reject)
  })
}
