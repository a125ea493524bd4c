/**
 * @module Creating an offer search upstream from a search body and a visitor, shared by the widget's route
 * (visitor read from the live request) and the server-to-server route (visitor sent by the publisher's
 * server). Only known fields go upstream; `sessionInformation` is always the visitor given here
 * (docs/offer-search-api.md: it "must be taken from the live end-user session"). A placement goes as a
 * `clientTags.subId` tag and is recorded with the search, and the created table's offers as served
 * (docs/placements.md).
 */

import { toFieldIssues } from '../contract/common.ts'
import {
  AUTOMOBILE_INSURANCE,
  type OfferSearchInput,
  offerSearchInputSchema,
  offerSearchRequestSchema,
  type SessionInformation,
  withZipKey,
} from '../contract/offer-search.ts'
import { MAX_SUB_IDS } from '../contract/search-fields.ts'
import { httpError } from '../http/errors.ts'
import type { CreatedRateTable } from '../http/search-resource.ts'
import { tagSearch } from '../http/trace.ts'
import type { BffServices } from './services.ts'
import { rethrowUpstream } from './upstream/index.ts'

/**
 * Validates `json` as the widget's search body and creates the search for `visitor`: its uuid and the
 * upstream's rate table text (the 201's envelope is `http/search-resource.ts`'s).
 */
export async function createSearch(
  services: BffServices,
  visitor: SessionInformation,
  json: unknown,
): Promise<CreatedRateTable> {
  const input = offerSearchInputSchema.safeParse(json)
  if (!input.success) {
    throw httpError(400, 'validation_failed', 'Fix the fields listed', { errors: toFieldIssues(input.error) })
  }
  const { productTypes, autoInsuranceInformation, personalInformation, placement } = input.data
  const clientTags = withPlacementTag(input.data.clientTags, placement)
  if (productTypes?.some((type) => type !== AUTOMOBILE_INSURANCE)) {
    throw httpError(400, 'validation_failed', 'Only auto insurance searches are supported here', {
      errors: [
        { field: 'productTypes', reason: `productTypes must be ["${AUTOMOBILE_INSURANCE}"] or omitted` },
      ],
    })
  }
  const request = offerSearchRequestSchema.safeParse({
    productTypes: [AUTOMOBILE_INSURANCE],
    sessionInformation: visitor,
    ...(autoInsuranceInformation && { autoInsuranceInformation }),
    ...(personalInformation && {
      personalInformation: withZipKey(personalInformation, services.config.zipCodeKey),
    }),
    ...(clientTags && { clientTags }),
  })
  if (!request.success) {
    throw httpError(400, 'validation_failed', 'Fix the fields listed', {
      errors: toFieldIssues(request.error),
    })
  }
  const created = await services.upstream.createOfferSearch(request.data).catch(rethrowUpstream)
  tagSearch(created.value.uuid)
  services.searchLog.record({
    kind: 'created',
    searchUuid: created.value.uuid,
    placement: placement ?? null,
    completed: created.value.pendingResponses.length === 0,
  })
  // Every way a search is created serves its first table: the widget may show those offers before its first
  // poll, or with none at all (a table final at creation, or one a publisher's server created).
  services.searchLog.served(created.value.uuid, created.json)
  return { searchUuid: created.value.uuid, rateTable: created.json }
}

/**
 * docs/placements.md: the placement travels upstream as one `clientTags.subId` tag (added unless already
 * there), never as a field of its own; with it the tags stay within the interface's 10.
 */
function withPlacementTag(
  clientTags: OfferSearchInput['clientTags'],
  placement: string | undefined,
): OfferSearchInput['clientTags'] {
  const subId = clientTags?.subId ?? []
  if (placement === undefined || subId.includes(placement)) return clientTags
  if (subId.length >= MAX_SUB_IDS) {
    throw httpError(400, 'validation_failed', 'Fix the fields listed', {
      errors: [
        {
          field: 'clientTags.subId',
          reason: `clientTags.subId takes at most ${MAX_SUB_IDS} tags and placement "${placement}" is added as one: send at most ${MAX_SUB_IDS - 1} tags with a placement, or list the placement among them`,
        },
      ],
    })
  }
  return { ...clientTags, subId: [...subId, placement] }
}
