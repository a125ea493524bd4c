/**
 * @module `createServerSearch(options)`: what a publisher's server calls to create a search for the visitor
 * it is serving, through `POST /api/server/offer-searches` on the BFF (over HTTP, or in-process with
 * `fetch: bff.fetch`). Answers validated with the same contract the widget uses; errors carry the BFF's
 * `{ code, message, errors }`.
 */
import { type BffError, bffErrorSchema, type CreatedSearch, createdSearchSchema } from '../contract/bff.ts'
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

export class ServerSearchError extends Error {
  override name = 'ServerSearchError'
  constructor(
    readonly status: number,
    readonly body: BffError | undefined,
  ) {
    super(
      body
        ? `createServerSearch: ${status} ${body.code}: ${body.message}${
            body.errors?.length ? ` (${body.errors.map((e) => `${e.field}: ${e.reason}`).join('; ')})` : ''
          }`
        : `createServerSearch: the BFF answered ${status} without an error body`,
    )
  }
}

export async function createServerSearch(options: CreateServerSearchOptions): Promise<ServerSearch> {
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
