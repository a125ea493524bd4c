/**
 * @module The upstream of a loan-only production server (`BFF_MODE=production` with no `ENGINE_TOKEN`):
 * there is no offer-search account, so every offer-search call answers 404 saying how to turn it on, and
 * readiness has nothing to check (the second look is what the server is for).
 */
import { httpError } from '../../http/errors.ts'
import type { UpstreamClient } from './create-upstream-client.ts'

export const OFFER_SEARCH_OFF_MESSAGE =
  'Offer search is off on this server (BFF_MODE=production with no ENGINE_TOKEN): set ENGINE_TOKEN and ENGINE_BASE_URL_* to turn it on'

export function offerSearchOff(): UpstreamClient {
  const off = () => Promise.reject(httpError(404, 'not_found', OFFER_SEARCH_OFF_MESSAGE))
  return {
    listIssuers: off,
    createOfferSearch: off,
    getOfferSearch: off,
    pollOfferSearchJson: off,
    checkReady: () => Promise.resolve(),
    close: () => Promise.resolve(),
  }
}
