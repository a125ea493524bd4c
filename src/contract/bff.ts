/**
 * @module Wire shapes between the widget and the BFF: routes, headers, the created-search envelope and
 * the error body. The offer search and second-look routes share them, so one hook polls both.
 */
import * as z from 'zod/mini'
import { rateTableSchema } from './rate-table.ts'

/** Every widget request carries it; a POST without it is refused, which forces a CORS preflight. */
export const WIDGET_HEADER = 'X-Offer-Widget'
/** The per-search capability the BFF issues with a created search; required to poll it. */
export const ACCESS_TOKEN_HEADER = 'X-Offer-Access-Token'

/**
 * The largest second-look lead body (`POST /api/second-look`) the BFF takes: a loan lead carries the FCRA and
 * TCPA texts shown to the lead (up to 10 000 characters each).
 */
export const LEAD_BODY_LIMIT_BYTES = 64 * 1024

export const BFF_ROUTES = {
  issuers: '/api/issuers',
  offerSearches: '/api/offer-searches',
  secondLook: '/api/second-look',
  /** The operator's FCRA and TCPA texts the loan application shows (`consentTextsSchema`). */
  consentTexts: '/api/second-look/consent',
  clicks: '/api/clicks',
} as const

/** `201` from `POST /api/offer-searches` and `POST /api/second-look`. */
export const createdSearchSchema = z.looseObject({
  accessToken: z.string().check(z.minLength(1)),
  rateTable: rateTableSchema,
})
export type CreatedSearch = z.infer<typeof createdSearchSchema>

/** Stable codes the widget can branch on; `message` is for people, `code` for code. */
const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  // 409 from `POST /api/second-look`: the applicant applied within the duplicate window and that application's
  // offers can no longer be shown (docs/second-look.md, "Duplicate applicants").
  'duplicate_applicant',
  'payload_too_large',
  'rate_limited',
  'upstream_misconfigured',
  'upstream_unavailable',
  // A dependency `/readyz` checks is unusable (src/http/readiness.ts).
  'redis_unavailable',
  'ledger_unavailable',
  'internal',
  // 503 from the server itself before its app is built, and once shutdown began (src/server/start-failure.ts, the
  // drain's `/readyz` and lead intake).
  'starting',
  'shutting_down',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export const bffErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  errors: z.optional(z.array(z.looseObject({ field: z.string(), reason: z.string() }))),
})
export type BffError = z.infer<typeof bffErrorSchema>
