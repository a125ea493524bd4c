/**
 * @module The server-to-server route `POST /api/server/offer-searches`: a publisher's server creates a
 * search for a visitor it is serving and hands `{ uuid, accessToken }` to the widget's `attach`. The
 * visitor's IP address and user agent are sent explicitly, because the request comes from the publisher's
 * server, whose own address and user agent must never reach carriers
 * (docs/offer-search-api.md#server-created-searches). Server code only: the widget never imports this file.
 */
import * as z from 'zod/mini'
import { ipAddress, nonEmptyText } from './common.ts'
import { isDeclaredBot } from './declared-bot.ts'

export const SERVER_OFFER_SEARCHES_ROUTE = '/api/server/offer-searches'

/** A product token first (`Mozilla/5.0 (...)`), printable ASCII only, as browsers send. */
const PRODUCT_TOKEN = /^[A-Za-z][A-Za-z0-9._+-]*\/\S/

export function isBrowserLikeUserAgent(value: string): boolean {
  return (
    PRODUCT_TOKEN.test(value) &&
    // HTTP libraries, crawlers, headless browsers and scripts: isbot's maintained list, not one of our own.
    !isDeclaredBot(value) &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    !/[\u0000-\u001f\u007f-\uffff]/.test(value)
  )
}

export const visitorSchema = z.strictObject(
  {
    ipAddress: z.string().check(
      z.refine((value) => ipAddress.safeParse(value).success, {
        error: 'visitor.ipAddress must be the visitor’s IPv4 or IPv6 address (from your trusted proxy chain)',
      }),
    ),
    userAgent: nonEmptyText('visitor.userAgent', 2048).check(
      z.refine(isBrowserLikeUserAgent, {
        error:
          'visitor.userAgent must be the visitor’s browser user agent (the User-Agent header of the page ' +
          'request), not your server’s HTTP client',
      }),
    ),
  },
  { error: 'visitor must be an object { ipAddress, userAgent }; unknown keys are refused' },
)

/** `search` is the widget's search body, validated by the same schema as `POST /api/offer-searches`. */
export const serverSearchRequestSchema = z.strictObject(
  {
    visitor: visitorSchema,
    search: z._default(z.unknown(), {}),
  },
  { error: 'The body must be { "visitor": { ipAddress, userAgent }, "search": { ... } } and nothing else' },
)
