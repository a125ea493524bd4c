/**
 * @module Wire shapes of the auto insurance offer search API (docs/offer-search-api.md): the offer search request and
 * the error body, plus (re-exported from rate-table.ts) issuers and the rate table with its offers and
 * pending partners. Server code imports all of it from here; browser code imports rate-table.ts.
 */
import * as z from 'zod/mini'
import { ipAddress, nonEmptyText, realDate, ZIP_PATTERN } from './common.ts'
import { placementSchema } from './placement.ts'
import {
  MAX_ISSUER_LENGTH,
  MAX_SUB_ID_LENGTH,
  MAX_SUB_IDS,
  MAX_VEHICLES,
  MIN_VEHICLES,
  ZIP_CODE_SAYS,
} from './search-fields.ts'

export type { Issuer, Offer, Partner, PendingResponse, RateTable } from './rate-table.ts'
export {
  AUTOMOBILE_INSURANCE,
  issuerListSchema,
  issuerSchema,
  NOT_INSURED,
  offerSchema,
  rateTableSchema,
} from './rate-table.ts'

/** The current `Api-Version`; docs/offer-search-api.md: "The current supported version is `2026-02-25`". */
export const CURRENT_API_VERSION = '2026-02-25'
/** Shape of a well-formed `Api-Version` value; anything else is a 400, a well-formed unknown one a 422. */
export const API_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/
const zip = (field: string) =>
  z.string().check(z.regex(ZIP_PATTERN, { error: `${field} must be ${ZIP_CODE_SAYS}` }))

/** The two spellings docs/offer-search-api.md uses for the ZIP key; which one goes upstream is configuration. */
export const ZIP_KEYS = ['zipcode', 'zipCode'] as const
export type ZipKey = (typeof ZIP_KEYS)[number]

const sessionInformationShape = {
  ipAddress,
  userAgent: nonEmptyText('sessionInformation.userAgent', 2048),
}
const sessionInformationSchema = z.looseObject(sessionInformationShape)
/**
 * The visitor's IP address and user agent: the one name of this shape on the server, whether the BFF read it
 * from the live request, a publisher's server sent it as `visitor`, or a lead carries it. Its two fields
 * only (the schema lets other keys through; nothing of ours reads them).
 */
export type SessionInformation = z.infer<z.ZodMiniObject<typeof sessionInformationShape>>

const policyHolderShape = {
  isHomeOwner: z.optional(z.boolean({ error: 'policyHolderInformation.isHomeOwner must be true or false' })),
  isMilitary: z.optional(z.boolean({ error: 'policyHolderInformation.isMilitary must be true or false' })),
}

const numberOfVehicles = z.optional(
  z.int({ error: 'autoInsuranceInformation.numberOfVehicles must be a whole number' }).check(
    z.gte(MIN_VEHICLES, {
      error: `autoInsuranceInformation.numberOfVehicles must be at least ${MIN_VEHICLES}`,
    }),
    z.lte(MAX_VEHICLES, {
      error: `autoInsuranceInformation.numberOfVehicles must be at most ${MAX_VEHICLES}`,
    }),
  ),
)

const autoInsuranceInformationSchema = z.looseObject({
  currentIssuer: z.optional(nonEmptyText('autoInsuranceInformation.currentIssuer', MAX_ISSUER_LENGTH)),
  numberOfVehicles,
  policyHolderInformation: z.optional(z.looseObject(policyHolderShape)),
})

const personalInformationShape = {
  zipCode: z.optional(zip('personalInformation.zipCode')),
  zipcode: z.optional(zip('personalInformation.zipcode')),
  dateOfBirth: z.optional(realDate('personalInformation.dateOfBirth')),
}

const zipSpellingsAgree = z.refine<{ zipCode?: string; zipcode?: string }>(
  (p) => p.zipCode === undefined || p.zipcode === undefined || p.zipCode === p.zipcode,
  {
    error: 'personalInformation.zipCode and personalInformation.zipcode disagree: send one of them',
    path: ['zipCode'],
  },
)

/** Both ZIP spellings are accepted on input (docs/offer-search-api.md spells it both ways); two different values are an error. */
const searchPersonalInformationSchema = z.looseObject(personalInformationShape).check(zipSpellingsAgree)

const subIdCount = () =>
  z.maxLength(MAX_SUB_IDS, { error: `clientTags.subId takes at most ${MAX_SUB_IDS} tags` })
const clientTagsSchema = z.looseObject({
  subId: z.optional(z.array(nonEmptyText('clientTags.subId[]', MAX_SUB_ID_LENGTH)).check(subIdCount())),
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

/** Browser text: no field of a search holds a control character (C0, DEL, C1), so none is handed on. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}

function inputText(field: string, max: number) {
  return nonEmptyText(field, max).check(
    z.refine((value: string) => !hasControlCharacter(value), {
      error: `${field} must not contain control characters`,
    }),
  )
}

/** Strict: an unknown field anywhere is refused, named, never forwarded. */
function strict<T extends z.core.$ZodLooseShape>(name: string, shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${name} has unknown fields (${issue.keys.join(', ')}): remove them`
        : undefined,
  })
}

/**
 * What a browser may send the BFF: the search fields minus session information (always rebuilt by the
 * BFF, so whatever arrives there is ignored), strict at every level, with control characters refused.
 */
export const offerSearchInputSchema = strict('The search', {
  productTypes: z.optional(
    z
      .array(inputText('productTypes[]', 100), { error: 'productTypes must be ["AutomobileInsurance"]' })
      .check(z.minLength(1, { error: 'productTypes must not be empty: send ["AutomobileInsurance"]' })),
  ),
  autoInsuranceInformation: z.optional(
    strict('autoInsuranceInformation', {
      currentIssuer: z.optional(inputText('autoInsuranceInformation.currentIssuer', MAX_ISSUER_LENGTH)),
      numberOfVehicles,
      policyHolderInformation: z.optional(
        strict('autoInsuranceInformation.policyHolderInformation', policyHolderShape),
      ),
    }),
  ),
  personalInformation: z.optional(
    strict('personalInformation', personalInformationShape).check(zipSpellingsAgree),
  ),
  clientTags: z.optional(
    strict('clientTags', {
      subId: z.optional(z.array(inputText('clientTags.subId[]', MAX_SUB_ID_LENGTH)).check(subIdCount())),
    }),
  ),
  /** Ours (docs/placements.md): the publisher's placement id; the BFF records it and forwards it as a `clientTags.subId` tag. */
  placement: z.optional(placementSchema),
  sessionInformation: z.optional(z.unknown()),
})
export type OfferSearchInput = z.infer<typeof offerSearchInputSchema>

/** Deepest nesting a search body needs (`autoInsuranceInformation.policyHolderInformation`), with room. */
export const OFFER_SEARCH_MAX_DEPTH = 6

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

/**
 * docs/offer-search-api.md: "Exact shape of the error objects: not shown." Our decision (docs/offer-search-api.md#error-body-shape): `{ errors: [{ field,
 * reason }] }`. The sandbox emits it; clients read it leniently because a real upstream may differ.
 */
export const upstreamErrorBodySchema = z.looseObject({
  errors: z.array(z.looseObject({ field: z.string(), reason: z.string() })),
})
export type UpstreamErrorBody = z.infer<typeof upstreamErrorBodySchema>
