/**
 * @module `createServerSearch(options)`: what a publisher's server calls to create a search for the visitor
 * it is serving, through `POST /api/server/offer-searches` on the BFF (over HTTP, or in-process with
 * `fetch: bff.fetch`). Answers validated with the same contract the widget uses; errors carry the BFF's
 * `{ code, message, errors }`.
 */

import * as z from 'zod/mini'
import { type BffError, bffErrorSchema, type CreatedSearch, createdSearchSchema } from '../contract/bff.ts'
import { isHttpUrl } from '../contract/http-url.ts'
import type { SessionInformation } from '../contract/offer-search.ts'
import { SERVER_OFFER_SEARCHES_ROUTE } from '../contract/server-search.ts'

export interface CreateServerSearchOptions {
  /** The BFF's base URL, e.g. `https://offers.example.com` (any origin when `fetch` is a BFF's own). */
  endpoint: string
  /** One of the BFF's `SERVER_API_KEYS`. Keep it in server code: the route refuses browsers anyway. */
  apiKey: string
  /** From `readVisitor(request, { trustProxy })`. */
  visitor: SessionInformation
  /** The widget's search body (`personalInformation`, `autoInsuranceInformation`, `clientTags`). */
  search?: Record<string, unknown>
  /** `createBff(...).fetch` to call a BFF in this process; global `fetch` otherwise. */
  fetch?: (request: Request) => Response | Promise<Response>
  signal?: AbortSignal
}

export interface ServerSearch extends CreatedSearch {
  /** Pass to `<OfferWidget attach={...} />` or the embed's `data-attach`. */
  attach: { uuid: string; accessToken: string }
}

/**
 * The search was not made: the BFF refused it (`status`, its error `body`), or the options could not make a
 * request (`status` 0: an empty key, an endpoint that is not an absolute http(s) URL). The message says
 * what to fix; README's Next.js page logs it and lets the widget search from the browser.
 */
export class ServerSearchError extends Error {
  override name = 'ServerSearchError'
  constructor(
    readonly status: number,
    readonly body: BffError | undefined,
  ) {
    super(
      status === 0 && body
        ? `createServerSearch: ${body.message}`
        : body
          ? `createServerSearch: ${status} ${body.code}: ${body.message}${
              body.errors?.length ? ` (${body.errors.map((e) => `${e.field}: ${e.reason}`).join('; ')})` : ''
            }`
          : `createServerSearch: the BFF answered ${status} without an error body`,
    )
  }
}

const optionsSchema = z.object({
  endpoint: z.string().check(
    z.refine(isHttpUrl, {
      error:
        'endpoint must be the BFF’s absolute http(s) URL, e.g. https://offers.example.com (is OFFERS_BFF_URL set?)',
    }),
  ),
  apiKey: z
    .string()
    .check(
      z.minLength(1, 'apiKey is empty: pass one of the BFF’s SERVER_API_KEYS (is OFFERS_SERVER_KEY set?)'),
    ),
})

export async function createServerSearch(options: CreateServerSearchOptions): Promise<ServerSearch> {
  const checked = optionsSchema.safeParse({ endpoint: options.endpoint, apiKey: options.apiKey })
  if (!checked.success) {
    const message = checked.error.issues.map((issue) => issue.message).join('; ')
    throw new ServerSearchError(0, { code: 'bad_request', message })
  }
  const url = new URL(SERVER_OFFER_SEARCHES_ROUTE, options.endpoint)
  const request = new Request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ visitor: options.visitor, search: options.search ?? {} }),
    signal: options.signal,
  })
  const response = await (options.fetch ?? fetch)(request)
  const json: unknown = await response.json().catch(() => undefined)
  if (response.status !== 201) {
    const parsed = bffErrorSchema.safeParse(json)
    throw new ServerSearchError(response.status, parsed.success ? parsed.data : undefined)
  }
  const created = createdSearchSchema.safeParse(json)
  if (!created.success) {
    throw new ServerSearchError(502, {
      code: 'upstream_unavailable',
      message: 'The BFF answered 201 with a body that is not { accessToken, rateTable }',
    })
  }
  const { accessToken, rateTable } = created.data
  return { ...created.data, attach: { uuid: rateTable.uuid, accessToken } }
}
