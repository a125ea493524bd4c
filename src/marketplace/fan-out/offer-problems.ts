/**
 * @module Contract checks of one offer on its own, after the reply as a whole passed the contract: a
 * `click_url` or `logo_src` carrying the lead's PII (docs/partner-interface.md, "PII in partner URLs"), and a
 * bid past the ceiling that keeps every report total finite. A failing offer is dropped, counted for the
 * partner's report and described without its content (the description names the field and the kind of PII,
 * never the value).
 */
import type { PartnerOffer } from '../../contract/partner.ts'
import type { PiiFinder } from './pii-in-url.ts'

/** A bid per click above 10 000 USD is a mistake, and sums of such bids could overflow a report. */
const MAX_BID = 10_000

export function offerProblems(
  offers: readonly PartnerOffer[],
  findPii: PiiFinder,
): { kept: Array<{ offer: PartnerOffer; position: number }>; dropped: string[] } {
  const kept: Array<{ offer: PartnerOffer; position: number }> = []
  const dropped: string[] = []
  offers.forEach((offer, position) => {
    const problem = problemOf(offer, findPii)
    if (problem === undefined) kept.push({ offer, position })
    else dropped.push(`offers[${position}].${problem}`)
  })
  return { kept, dropped }
}

function problemOf(offer: PartnerOffer, findPii: PiiFinder): string | undefined {
  if (offer.rate > MAX_BID) return `rate is over the ${MAX_BID} USD ceiling`
  for (const field of ['click_url', 'logo_src'] as const) {
    const url = offer[field]
    const kind = url === undefined ? undefined : findPii(url)
    if (kind !== undefined) return `${field} carries the lead's ${kind}`
  }
  return undefined
}
