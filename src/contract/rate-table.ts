/**
 * @module The read side of the offer search API (docs/offer-search-api.md): issuers, the rate table with its offers and
 * pending partners, and the product type a search asks for. Kept apart from the request schemas in
 * offer-search.ts (which re-exports all of this) so the browser bundle, which only reads rate tables,
 * carries none of the server's request validators.
 */
import * as z from 'zod/mini'
import { nonEmptyText, text, uuidString } from './common.ts'

/** docs/offer-search-api.md: `productTypes` "Use `[AutomobileInsurance]`"; also each auto offer's `productType`. */
export const AUTOMOBILE_INSURANCE = 'AutomobileInsurance'
/** docs/offer-search-api.md: "The special issuer id `notinsured` is used when the lead has no current coverage." */
export const NOT_INSURED = 'notinsured'

export const issuerSchema = z.looseObject({
  id: nonEmptyText('id', 200),
  name: text('name', 500),
  logoImageUrl: text('logoImageUrl', 2048),
})
export type Issuer = z.infer<typeof issuerSchema>
export const issuerListSchema = z.array(issuerSchema)

/**
 * Display text has no length bound: over-long copy is clamped on screen, never a reason to drop an offer
 * (docs/offer-search-api.md). The upstream body's size cap bounds it.
 */
const copy = (field: string) => z.string({ error: `${field} must be a string` })

/**
 * ISO 8601 date-time with `Z` or an offset. Our own pattern rather than `z.iso.datetime`, whose regex
 * builder costs the script-tag bundle about 0.4 kB gzip; calendar validity of the date is not checked.
 */
const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/
export const isoTimestamp = (field: string) =>
  z.string().check(z.regex(ISO_DATE_TIME, { error: `${field} must be an ISO 8601 timestamp` }))

const partnerSchema = z.looseObject({
  uuid: nonEmptyText('partner.uuid', 200),
  name: copy('partner.name'),
  brandName: copy('partner.brandName'),
  brandUuid: text('partner.brandUuid', 200),
  imageUrl: text('partner.imageUrl', 2048),
  description: copy('partner.description'),
  disclaimer: copy('partner.disclaimer'),
  supportsPreSelect: z.boolean(),
  shouldDisplayPreSelect: z.boolean(),
  supportsPersonalizedOffers: z.boolean(),
})
export type Partner = z.infer<typeof partnerSchema>

const range = z.looseObject({ min: z.number(), max: z.number() })
const loanTermsSchema = z.looseObject({
  aprPercent: z.optional(range),
  amountUsd: z.optional(range),
  termMonths: z.optional(range),
  monthlyPaymentUsd: z.optional(z.number()),
  originationFeePercent: z.optional(range),
})
/** An offer's loan terms as figures (our extension; the partner's `loan_terms` in loan-terms.ts). */
export type LoanTerms = z.infer<typeof loanTermsSchema>

export const pendingResponseSchema = z.looseObject({
  partner: partnerSchema,
  offerCatalogProductTypes: z.array(z.string()),
})
export type PendingResponse = z.infer<typeof pendingResponseSchema>

/**
 * URLs stay plain strings here: an offer with a bad link must still parse so the widget can render it
 * without the link (the display rules drop anything that is not http(s)).
 */
export const offerSchema = z.looseObject({
  uuid: nonEmptyText('offer.uuid', 200),
  version: z.int(),
  productVersions: z.optional(z.array(z.int())),
  rank: z.int({ error: 'offer.rank must be a whole number' }),
  recommendationScore: z.number(),
  headline: copy('offer.headline'),
  descriptionPoints: z.array(copy('offer.descriptionPoints[]')),
  productType: text('offer.productType', 200),
  productDisplayName: copy('offer.productDisplayName'),
  status: text('offer.status', 100),
  isMonetized: z.boolean(),
  url: text('offer.url', 4096),
  unmonetizedUrl: text('offer.unmonetizedUrl', 4096),
  impressionTrackingPixelUrls: z.optional(z.array(text('offer.impressionTrackingPixelUrls[]', 4096))),
  financialInstitutionUuid: text('offer.financialInstitutionUuid', 200),
  financialInstitutionDisplayName: copy('offer.financialInstitutionDisplayName'),
  financialInstitutionImageUrl: text('offer.financialInstitutionImageUrl', 2048),
  createdAt: z.optional(isoTimestamp('offer.createdAt')),
  updatedAt: z.optional(isoTimestamp('offer.updatedAt')),
  /**
   * Our extension, on second-look offers only (docs/partner-interface.md): the partner's disclaimer, so it is
   * shown with the offer it belongs to and never for a partner that offers nothing.
   */
  disclaimer: z.optional(copy('offer.disclaimer')),
  /**
   * Our extension, on second-look offers only (docs/partner-interface.md, "Loan terms"): the partner's APR,
   * amount and term as figures, validated on the BFF (loan-terms.ts). Loose, so a newer BFF's extra figure
   * passes; absent on offers without terms, which show as their copy says.
   */
  loanTerms: z.optional(loanTermsSchema),
})
export type Offer = z.infer<typeof offerSchema>

export const rateTableSchema = z.looseObject({
  uuid: uuidString('uuid'),
  leadUuid: uuidString('leadUuid'),
  offers: z.array(offerSchema),
  pendingResponses: z.array(pendingResponseSchema),
  createdAt: isoTimestamp('createdAt'),
  /**
   * Our extension, on second-look leads only (docs/partner-interface.md): how many partners the lead is sent
   * to in all (every tier that can still run), how many have answered, and when the last tier window that
   * can still run closes, so the widget can say how many lenders it asks and how long it waits at most.
   */
  secondLook: z.optional(
    z.looseObject({
      partnersAsked: z.int({ error: 'secondLook.partnersAsked must be a whole number' }),
      partnersAnswered: z.int({ error: 'secondLook.partnersAnswered must be a whole number' }),
      answerBy: isoTimestamp('secondLook.answerBy'),
    }),
  ),
})
export type RateTable = z.infer<typeof rateTableSchema>
