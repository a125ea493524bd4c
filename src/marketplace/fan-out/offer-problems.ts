/**
 * @module Contract checks of one offer on its own, after the reply as a whole passed the contract: any of its
 * text or link fields carrying the lead's PII, or encoded past what the PII finder reads
 * (docs/decisions/0097-pii-in-partner-replies.md); outside sandbox mode, a `click_url` or `logo_src`
 * that is not https to a public host ("Partner links and endpoints"); and a bid past the ceiling that keeps
 * every report total finite. A failing offer is dropped whole, counted for the partner's report and described
 * without its content (the description names the field and the kind of PII, never the value).
 */
import { type PartnerOffer, partnerUrlProblem } from '../../contract/partner.ts'
import { MAX_DECODE_DEPTH, type PiiFinder } from './pii-finder.ts'

/** A bid per click above 10 000 USD is a mistake, and sums of such bids could overflow a report. */
const MAX_BID = 10_000

/** Every partner string of an offer that is stored or shown: each goes through the finder. */
const CHECKED_FIELDS = [
  'click_url',
  'logo_src',
  'name',
  'display_name',
  'offer_details',
  'product_type',
] as const satisfies ReadonlyArray<keyof PartnerOffer>

export interface OfferRules {
  findPii: PiiFinder
  /** Outside sandbox mode: links and logos must be https to a public host. */
  publicLinksOnly: boolean
}

export function offerProblems(
  offers: readonly PartnerOffer[],
  rules: OfferRules,
): { kept: Array<{ offer: PartnerOffer; position: number }>; dropped: string[] } {
  const kept: Array<{ offer: PartnerOffer; position: number }> = []
  const dropped: string[] = []
  offers.forEach((offer, position) => {
    const problem = problemOf(offer, rules)
    if (problem === undefined) kept.push({ offer, position })
    else dropped.push(`offers[${position}].${problem}`)
  })
  return { kept, dropped }
}

function problemOf(offer: PartnerOffer, { findPii, publicLinksOnly }: OfferRules): string | undefined {
  if (offer.rate > MAX_BID) return `rate is over the ${MAX_BID} USD ceiling`
  for (const field of CHECKED_FIELDS) {
    const value = offer[field]
    if (value === undefined) continue
    const found = findPii(value)
    if (found === 'nested encoding') return `${field} is encoded more than ${MAX_DECODE_DEPTH} layers deep`
    if (found !== undefined) return `${field} carries the lead's ${found}`
  }
  if (publicLinksOnly) {
    for (const field of ['click_url', 'logo_src'] as const) {
      const value = offer[field]
      const problem = value === undefined ? undefined : partnerUrlProblem(value, { publicOnly: true })
      if (problem !== undefined) return `${field} ${problem}`
    }
  }
  return undefined
}
