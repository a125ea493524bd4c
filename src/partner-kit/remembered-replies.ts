/**
 * @module The replies the reference partner gave, by lead `Idempotency-Key`, so a repeat of a lead (another
 * replica sending it again after a takeover, docs/partner-interface.md#recognising-a-repeat) is answered with
 * the reply it got the first time and counted once. Bounded both ways: at most `max` replies (the oldest goes
 * first) and each for `ttlMs`, well past the 12 s window a repeat comes within. A Map keeps insertion order,
 * which is all an oldest-first cap needs.
 */
import type { Clock } from '../http/timers.ts'

export interface RememberedRepliesOptions {
  /** Most replies kept; the oldest is forgotten first. */
  max: number
  /** How long a reply is kept, in ms. */
  ttlMs: number
  timers: Clock
}

export interface RememberedReplies<T> {
  /** The reply remembered for `key`, while it is fresh. */
  get(key: string): T | undefined
  remember(key: string, reply: T): void
  readonly size: number
}

export function rememberedReplies<T>(options: RememberedRepliesOptions): RememberedReplies<T> {
  if (!(Number.isInteger(options.max) && options.max > 0)) {
    throw new TypeError(`rememberedReplies: max must be a positive whole number (got ${options.max})`)
  }
  const replies = new Map<string, { reply: T; until: number }>()
  return {
    get(key) {
      const found = replies.get(key)
      if (found === undefined) return undefined
      if (found.until <= options.timers.now()) {
        replies.delete(key)
        return undefined
      }
      return found.reply
    },
    remember(key, reply) {
      replies.delete(key)
      replies.set(key, { reply, until: options.timers.now() + options.ttlMs })
      // Expired ones at the front go first, then the oldest while over the cap.
      for (const [oldest, { until }] of replies) {
        if (replies.size <= options.max && until > options.timers.now()) break
        replies.delete(oldest)
      }
    },
    get size() {
      return replies.size
    },
  }
}
