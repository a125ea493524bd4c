/**
 * @module Wire shapes of the auto insurance offer search API (seed 000): issuers, the offer search
 * request, the rate table with its offers and pending partners, and the error body.
 */
import * as z from 'zod/mini'
import { ipAddress, nonEmptyText, realDate, text, uuidString } from './common.ts'

/** The current `Api-Version`; seed 000: "The current supported version is `2026-02-25`". */
export const CURRENT_API_VERSION = '2026-02-25'
/** Shape of a well-formed `Api-Version` value; anything else is a 400, a well-formed unknown one a 422. */
export const API_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/
export const AUTOMOBILE_INSURANCE = 'AutomobileInsurance'
/** Seed 000: "The special issuer id `notinsured` is used when the lead has no current coverage." */
export const NOT_INSURED = 'notinsured'

export const issuerSchema = z.looseObject({
  id: nonEmptyText('id', 200),
  name: text('name', 500),
  logoImageUrl: text('logoImageUrl', 2048),
})
export type Issuer = z.infer<typeof issuerSchema>
export const issuerListSchema = z.array(issuerSchema)

/** ZIP or ZIP+4; seed 000 gives no format, US ZIPs are what carriers license by. */
export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/
const zip = (field: string) =>
  z.string().check(z.regex(ZIP_PATTERN, { error: `${field} must be a 5-digit ZIP code (or ZIP+4)` }))

/** The two spellings seed 000 uses for the ZIP key; which one goes upstream is configuration. */
export const ZIP_KEYS = ['zipcode', 'zipCode'] as const
export type ZipKey = (typeof ZIP_KEYS)[number]

export const sessionInformationSchema = z.looseObject({
  ipAddress,
  userAgent: nonEmptyText('sessionInformation.userAgent', 2048),
})
export type SessionInformation = z.infer<typeof sessionInformationSchema>

export const autoInsuranceInformationSchema = z.looseObject({
  currentIssuer: z.optional(nonEmptyText('autoInsuranceInformation.currentIssuer', 200)),
  numberOfVehicles: z.optional(
    z
      .int({ error: 'autoInsuranceInformation.numberOfVehicles must be a whole number' })
      .check(
        z.gte(1, { error: 'autoInsuranceInformation.numberOfVehicles must be at least 1' }),
        z.lte(20, { error: 'autoInsuranceInformation.numberOfVehicles must be at most 20' }),
      ),
  ),
  policyHolderInformation: z.optional(
    z.looseObject({
      isHomeOwner: z.optional(
        z.boolean({ error: 'policyHolderInformation.isHomeOwner must be true or false' }),
      ),
      isMilitary: z.optional(
        z.boolean({ error: 'policyHolderInformation.isMilitary must be true or false' }),
      ),
    }),
  ),
})

/** Both ZIP spellings are accepted on input (seed 000 spells it both ways); two different values are an error. */
export const searchPersonalInformationSchema = z
  .looseObject({
    zipCode: z.optional(zip('personalInformation.zipCode')),
    zipcode: z.optional(zip('personalInformation.zipcode')),
    dateOfBirth: z.optional(realDate('personalInformation.dateOfBirth')),
  })
  .check(
    z.refine((p) => p.zipCode === undefined || p.zipcode === undefined || p.zipCode === p.zipcode, {
      error: 'personalInformation.zipCode and personalInformation.zipcode disagree: send one of them',
      path: ['zipCode'],
    }),
  )

export const clientTagsSchema = z.looseObject({
  subId: z.optional(
    z
      .array(nonEmptyText('clientTags.subId[]', 100))
      .check(z.maxLength(10, { error: 'clientTags.subId takes at most 10 tags' })),
  ),
})

const searchFields = {
  productTypes: z
    .array(nonEmptyText('productTypes[]', 100), {
      error: 'productTypes is required: send ["AutomobileInsurance"]',
    })
    .check(z.minLength(1, { error: 'productTypes must not be empty: send ["AutomobileInsurance"]' })),
  autoInsuranceInformation: z.optional(autoInsuranceInformationSchema),
  personalInformation: z.optional(searchPersonalInformationSchema),
  clientTags: z.optional(clientTagsSchema),
}

/** The request body of `POST /offerSearches/` exactly as the upstream receives it. */
export const offerSearchRequestSchema = z.looseObject({
  ...searchFields,
  sessionInformation: sessionInformationSchema,
})
export type OfferSearchRequest = z.infer<typeof offerSearchRequestSchema>

/** What a browser may send the BFF: the same, minus session information, which the BFF always rebuilds. */
export const offerSearchInputSchema = z.looseObject({
  ...searchFields,
  productTypes: z.optional(searchFields.productTypes),
  sessionInformation: z.optional(z.unknown()),
})
export type OfferSearchInput = z.infer<typeof offerSearchInputSchema>

/** Returns the personal information with the ZIP under exactly one key, the configured one. */
export function withZipKey<T extends { zipCode?: string; zipcode?: string }>(
  info: T,
  key: ZipKey,
): Omit<T, 'zipCode' | 'zipcode'> & Partial<Record<ZipKey, string>> {
  const { zipCode, zipcode, ...rest } = info
  const value = zipCode ?? zipcode
  return value === undefined ? rest : { ...rest, [key]: value }
}

/** Reads the ZIP whichever spelling carried it. */
export function readZip(info: { zipCode?: unknown; zipcode?: unknown } | undefined): string | undefined {
  const value = info?.zipCode ?? info?.zipcode
  return typeof value === 'string' ? value : undefined
}

const isoTimestamp = (field: string) =>
  z.string().check(z.iso.datetime({ offset: true, error: `${field} must be an ISO 8601 timestamp` }))

export const partnerSchema = z.looseObject({
  uuid: nonEmptyText('partner.uuid', 200),
  name: text('partner.name', 500),
  brandName: text('partner.brandName', 500),
  brandUuid: text('partner.brandUuid', 200),
  imageUrl: text('partner.imageUrl', 2048),
  description: text('partner.description', 10_000),
  disclaimer: text('partner.disclaimer', 20_000),
  supportsPreSelect: z.boolean(),
  shouldDisplayPreSelect: z.boolean(),
  supportsPersonalizedOffers: z.boolean(),
})
export type Partner = z.infer<typeof partnerSchema>

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
  headline: text('offer.headline', 2000),
  descriptionPoints: z.array(text('offer.descriptionPoints[]', 2000)),
  productType: text('offer.productType', 200),
  productDisplayName: text('offer.productDisplayName', 500),
  status: text('offer.status', 100),
  isMonetized: z.boolean(),
  url: text('offer.url', 4096),
  unmonetizedUrl: text('offer.unmonetizedUrl', 4096),
  impressionTrackingPixelUrls: z.optional(z.array(text('offer.impressionTrackingPixelUrls[]', 4096))),
  financialInstitutionUuid: text('offer.financialInstitutionUuid', 200),
  financialInstitutionDisplayName: text('offer.financialInstitutionDisplayName', 500),
  financialInstitutionImageUrl: text('offer.financialInstitutionImageUrl', 2048),
  createdAt: z.optional(isoTimestamp('offer.createdAt')),
  updatedAt: z.optional(isoTimestamp('offer.updatedAt')),
})
export type Offer = z.infer<typeof offerSchema>

export const rateTableSchema = z.looseObject({
  uuid: uuidString('uuid'),
  leadUuid: uuidString('leadUuid'),
  offers: z.array(offerSchema),
  pendingResponses: z.array(pendingResponseSchema),
  createdAt: isoTimestamp('createdAt'),
})
export type RateTable = z.infer<typeof rateTableSchema>

/**
 * Seed 000: "Exact shape of the error objects: not shown." Our decision (README): `{ errors: [{ field,
 * reason }] }`. The sandbox emits it; clients read it leniently because a real upstream may differ.
 */
export const upstreamErrorBodySchema = z.looseObject({
  errors: z.array(z.looseObject({ field: z.string(), reason: z.string() })),
})
export type UpstreamErrorBody = z.infer<typeof upstreamErrorBodySchema>
