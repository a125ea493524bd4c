/**
 * @module `POST /api/offer-searches` and `GET /api/offer-searches/:uuid`: create a search with the live
 * visitor's session information, then poll it with the access token issued for its uuid.
 */
import { Hono } from 'hono'
import { ACCESS_TOKEN_HEADER } from '../../contract/bff.ts'
import { toFieldIssues, UUID_PATTERN } from '../../contract/common.ts'
import {
  AUTOMOBILE_INSURANCE,
  OFFER_SEARCH_MAX_DEPTH,
  offerSearchInputSchema,
  offerSearchRequestSchema,
  withZipKey,
} from '../../contract/offer-search.ts'
import { bffError } from '../errors.ts'
import { readJsonBody } from '../json-body.ts'
import type { BffKit } from '../kit.ts'
import type { PollCoalescer } from '../poll-coalescer.ts'
import { rethrowUpstream } from '../upstream.ts'

export function offerSearchRoutes(kit: BffKit, coalescer: PollCoalescer): Hono {
  const { config, upstream, accessTokens, clientIdentity } = kit
  const app = new Hono()

  app.post('/', kit.perIpRateLimit('/api/offer-searches'), async (c) => {
    const identity = clientIdentity(c)
    const json = await readJsonBody(c, { maxDepth: OFFER_SEARCH_MAX_DEPTH })
    const input = offerSearchInputSchema.safeParse(json)
    if (!input.success) {
      throw bffError(400, 'validation_failed', 'Fix the fields listed', {
        errors: toFieldIssues(input.error),
      })
    }
    const { productTypes, autoInsuranceInformation, personalInformation, clientTags } = input.data
    if (productTypes?.some((type) => type !== AUTOMOBILE_INSURANCE)) {
      throw bffError(400, 'validation_failed', 'Only auto insurance searches are supported here', {
        errors: [
          { field: 'productTypes', reason: `productTypes must be ["${AUTOMOBILE_INSURANCE}"] or omitted` },
        ],
      })
    }
    // Only known top-level fields go upstream; sessionInformation is always rebuilt from this request
    // (seed 000: "It must be taken from the live end-user session").
    const request = offerSearchRequestSchema.safeParse({
      productTypes: [AUTOMOBILE_INSURANCE],
      sessionInformation: identity,
      ...(autoInsuranceInformation && { autoInsuranceInformation }),
      ...(personalInformation && { personalInformation: withZipKey(personalInformation, config.zipCodeKey) }),
      ...(clientTags && { clientTags }),
    })
    if (!request.success) {
      throw bffError(400, 'validation_failed', 'Fix the fields listed', {
        errors: toFieldIssues(request.error),
      })
    }
    const created = await upstream.createOfferSearch(request.data).catch(rethrowUpstream)
    const body = createdSearchJson(accessTokens.issue(created.value.uuid), created.json)
    return c.body(body, 201, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  })

  app.get('/:uuid', async (c) => {
    const uuid = c.req.param('uuid')
    if (!UUID_PATTERN.test(uuid)) {
      throw bffError(400, 'bad_request', 'The rate table id must be a UUID', {
        errors: [{ field: 'uuid', reason: 'uuid must be a UUID (8-4-4-4-12 hex digits)' }],
      })
    }
    // Missing, wrong and expired tokens all look like an unknown uuid: nothing confirms it exists.
    if (!accessTokens.verify(c.req.header(ACCESS_TOKEN_HEADER), uuid)) {
      throw bffError(404, 'not_found', 'No such offer search')
    }
    const rateTable = await coalescer.get(uuid).catch(rethrowUpstream)
    return c.body(rateTable, 200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  })

  return app
}

/**
 * The `CreatedSearch` envelope around the upstream's rate table text. That text parsed and passed the
 * contract (`ValidatedBody`), and JSON.parse reads it the same in the browser, so embedding it answers
 * the value the contract accepted without serialising it (~5 KB) a second time per search.
 */
export function createdSearchJson(accessToken: string, rateTableJson: string): string {
  // The keys of `CreatedSearch`; the route tests parse the answer with createdSearchSchema.
  return `{"accessToken":${JSON.stringify(accessToken)},"rateTable":${rateTableJson}}`
}
