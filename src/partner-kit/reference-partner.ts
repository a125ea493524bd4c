/**
 * @module The reference partner as a Hono app: the partner side of docs/partner-interface.md over HTTP. docs/partner-interface.md leaves
 * method and path "not shown"; we accept `POST /` and `POST /leads` and answer every lead with HTTP 200 and
 * a JSON reply, failures included, since the seed signals them in the body (README, Decisions).
 */
import { randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { type AnswerOptions, answerLead, answerOptionsSchema, answerUnparseable } from './answer-lead.ts'

export interface ReferencePartnerOptions extends Partial<Omit<AnswerOptions, 'now'>> {
  /** The clock; tests pin it. Defaults to the wall clock. */
  now?: () => Date
}

/** Paths the reference partner takes leads on. */
export const LEAD_PATHS = ['/', '/leads'] as const

/** A lead is a few kilobytes; anything near this is not one. */
const MAX_BODY_BYTES = 64 * 1024

export function createReferencePartner(options: ReferencePartnerOptions = {}): Hono {
  const { now = () => new Date(), ...rest } = options
  // A random secret by default: ids are stable for the life of the process; pass `secret` to keep them
  // across restarts. Never a secret in the source, or the ids could be reversed to SSNs.
  const settings = { ...rest, secret: rest.secret ?? randomBytes(32).toString('base64url') }
  const checked = answerOptionsSchema.safeParse({ ...settings, now: new Date(0) })
  if (!checked.success) {
    throw new TypeError(`createReferencePartner: ${checked.error.issues.map((i) => i.message).join('; ')}`)
  }

  const app = new Hono()
  app.get('/health', (c) => c.json({ ok: true }))
  for (const path of LEAD_PATHS) {
    app.post(
      path,
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: (c) => c.json(answerUnparseable('', { ...settings, now: now() }), 413),
      }),
      async (c) => {
        const raw = await c.req.text()
        let body: unknown
        try {
          body = JSON.parse(raw)
        } catch {
          return c.json(answerUnparseable(raw, { ...settings, now: now() }))
        }
        return c.json(answerLead(body, { ...settings, now: now() }))
      },
    )
  }
  return app
}
