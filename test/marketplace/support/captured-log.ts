/**
 * @module The marketplace's log captured for tests: every line kept, and a promise for "the marketplace has
 * logged N partner replies", a real event a test waits on before it moves a fake clock.
 */
import { Writable } from 'node:stream'
import pino, { type Logger } from 'pino'

export interface CapturedLog {
  logger: Logger
  lines: string[]
  /** Resolves once `count` partner replies (timeouts included) have been logged in all. */
  whenReplies(count: number): Promise<void>
}

export function captureLog(): CapturedLog {
  const lines: string[] = []
  let replies = 0
  const waiters: Array<{ count: number; resolve: () => void }> = []
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      const written = String(chunk).split('\n').filter(Boolean)
      lines.push(...written)
      replies += written.filter((line) => line.includes('"msg":"partner reply"')).length
      for (const waiter of waiters.filter((w) => w.count <= replies)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
      callback()
    },
  })
  return {
    logger: pino({ level: 'debug' }, sink),
    lines,
    whenReplies: (count) =>
      replies >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
  }
}
