/**
 * @module The reference partner as a Hono app: the partner side of docs/partner-interface.md over HTTP. docs/partner-interface.md leaves
 * method and path "not shown"; we accept `POST /` and `POST /leads` and answer every lead with HTTP 200 and
 * a JSON reply, failures included, since the seed signals them in the body
 * (docs/partner-interface.md#http-statuses-and-what-counts-as-an-error). A repeat of a
 * lead (the same `Idempotency-Key` and body) is answered with the reply it got, marked `Idempotent-Replayed`.
 */
import { createHash, randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import type { PartnerReply } from '../contract/partner.ts'
import { type Clock, systemTimers } from '../http/timers.ts'
import { type AnswerOptions, answerLead, answerOptionsSchema, answerUnparseable } from './answer-lead.ts'
import { rememberedReplies } from './remembered-replies.ts'

export interface ReferencePartnerOptions extends Partial<Omit<AnswerOptions, 'now'>> {
  /** The clock; tests pin it. `systemTimers` by default. */
  timers?: Clock
  /**
   * Most replies kept for repeats (`Idempotency-Key`), each for 10 minutes; default 10,000 (a few KB each,
   * so tens of MB at most).
   */
  rememberedReplies?: number
}

/** How long a reply is kept for a repeat: far past the 12 s window a takeover resends a lead within. */
const REMEMBER_MS = 10 * 60_000
const DEFAULT_REMEMBERED = 10_000
/** Our lead id per partner (docs/partner-interface.md): anything else is not a key this partner replays. */
const idempotencyKeySchema = z.uuid()

/** Paths the reference partner takes leads on. */
export const LEAD_PATHS = ['/', '/leads'] as const

/** A lead is a few kilobytes; anything near this is not one. */
const MAX_BODY_BYTES = 64 * 1024

export function createReferencePartner(options: ReferencePartnerOptions = {}): Hono {
  const { timers = systemTimers, rememberedReplies: max = DEFAULT_REMEMBERED, ...rest } = options
  // A random secret by default: ids are stable for the life of the process; pass `secret` to keep them
  // across restarts. Never a secret in the source, or the ids could be reversed to SSNs.
  const settings = { ...rest, secret: rest.secret ?? randomBytes(32).toString('base64url') }
  const checked = answerOptionsSchema.safeParse({ ...settings, now: new Date(0) })
  if (!checked.success) {
    throw new TypeError(`createReferencePartner: ${checked.error.issues.map((i) => i.message).join('; ')}`)
  }

  const replies = rememberedReplies<PartnerReply>({ max, ttlMs: REMEMBER_MS, timers })

  const app = new Hono()
  app.get('/health', (c) => c.json({ ok: true }))
  for (const path of LEAD_PATHS) {
    app.post(
      path,
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: (c) => c.json(answerUnparseable('', { ...settings, now: new Date(timers.now()) }), 413),
      }),
      async (c) => {
        const raw = await c.req.text()
        // The key and the body: a key sent again with another lead is not a repeat, and is answered afresh.
        const key = idempotencyKeySchema.safeParse(c.req.header('idempotency-key'))
        const repeatKey = key.success
          ? `${key.data}:${createHash('sha256').update(raw).digest('hex')}`
          : undefined
        const given = repeatKey === undefined ? undefined : replies.get(repeatKey)
        if (given !== undefined) {
          c.header('Idempotent-Replayed', 'true')
          return c.json(given)
        }
        const reply = answer(raw, { ...settings, now: new Date(timers.now()) })
        if (repeatKey !== undefined) replies.remember(repeatKey, reply)
        return c.json(reply)
      },
    )
  }
  return app
}

/** A lead's reply; a body that is not JSON gets an error reply too. */
function answer(raw: string, options: AnswerOptions): PartnerReply {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return answerUnparseable(raw, options)
  }
  return answerLead(body, options)
}
