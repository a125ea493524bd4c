/**
 * @module Wire shapes of the second-look marketplace partner interface (seed 001): the lead sent to a
 * partner and the partner's reply with its offers, with every availability and conditional rule.
 */
import * as z from 'zod/mini'
import { ipAddress, nonEmptyText, realDate, text } from './common.ts'

/** Seed 001: "50 U.S. states plus DC, PR and VI". */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'PR',
  'VI',
] as const
export type UsState = (typeof US_STATES)[number]

/** Seed 001 types these consent flags as strings that "carry true". */
const consentString = (field: string) =>
  z.enum(['true', 'false'], { error: `${field} must be the string "true" or "false"` })

export const leadPersonalInformationSchema = z.looseObject({
  firstName: nonEmptyText('personalInformation.firstName', 100),
  lastName: nonEmptyText('personalInformation.lastName', 100),
  email: z.email({ error: 'personalInformation.email must be an email address' }),
  city: nonEmptyText('personalInformation.city', 100),
  state: z.enum(US_STATES, {
    error: 'personalInformation.state must be a two-letter code of the 50 states, DC, PR or VI',
  }),
  primaryPhone: z.string().check(
    z.regex(/^\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$/, {
      error: 'personalInformation.primaryPhone must be a 10-digit US phone number',
    }),
  ),
  address1: nonEmptyText('personalInformation.address1', 200),
  address2: z.optional(text('personalInformation.address2', 200)),
  zipcode: z
    .string()
    .check(z.regex(/^\d{5}(-\d{4})?$/, { error: 'personalInformation.zipcode must be a 5-digit ZIP code' })),
  dateOfBirth: realDate('personalInformation.dateOfBirth'),
  ssn: z
    .string()
    .check(
      z.regex(/^\d{3}-?\d{2}-?\d{4}$/, { error: 'personalInformation.ssn must be 9 digits (###-##-####)' }),
    ),
})

export const loanInformationSchema = z.looseObject({
  purpose: nonEmptyText('loanInformation.purpose', 100),
  loanAmount: z.optional(
    z
      .number({ error: 'loanInformation.loanAmount must be a number of USD' })
      .check(z.positive({ error: 'loanInformation.loanAmount must be more than 0' })),
  ),
})

export const mortgageInformationSchema = z.looseObject({
  propertyStatus: z.optional(nonEmptyText('mortgageInformation.propertyStatus', 100)),
})

/** Seed 001: "exactly one of this and `providedNumericCreditScore` is available". */
export const creditInformationSchema = z
  .looseObject({
    providedCreditRating: z.optional(nonEmptyText('creditInformation.providedCreditRating', 100)),
    providedNumericCreditScore: z.optional(
      z
        .number({ error: 'creditInformation.providedNumericCreditScore must be a number' })
        .check(
          z.gte(300, { error: 'creditInformation.providedNumericCreditScore must be at least 300' }),
          z.lte(850, { error: 'creditInformation.providedNumericCreditScore must be at most 850' }),
        ),
    ),
  })
  .check(
    z.refine((c) => (c.providedCreditRating === undefined) !== (c.providedNumericCreditScore === undefined), {
      error:
        'creditInformation needs exactly one of providedCreditRating and providedNumericCreditScore: send one, not both',
      path: ['providedCreditRating'],
    }),
  )

const usd = (field: string) =>
  z
    .number({ error: `${field} must be a number of USD` })
    .check(z.gte(0, { error: `${field} must not be negative` }))

/** Seed 001: "one of `annualIncome` and `monthlyNetIncome` is present". */
export const financialInformationSchema = z
  .looseObject({
    employmentStatus: z.optional(nonEmptyText('financialInformation.employmentStatus', 100)),
    employmentPayFrequency: z.optional(nonEmptyText('financialInformation.employmentPayFrequency', 100)),
    annualIncome: z.optional(usd('financialInformation.annualIncome')),
    monthlyNetIncome: z.optional(usd('financialInformation.monthlyNetIncome')),
  })
  .check(
    z.refine((f) => f.annualIncome !== undefined || f.monthlyNetIncome !== undefined, {
      error: 'financialInformation needs annualIncome or monthlyNetIncome: send at least one',
      path: ['annualIncome'],
    }),
  )

/** Seed 001: `tcpaLanguage` is "present when `consentstoTcpa` is true"; the key is spelled exactly so. */
export const legalInformationSchema = z
  .looseObject({
    consentsToFcra: z.literal('true', {
      error: 'legalInformation.consentsToFcra must be "true": the lead must give FCRA consent',
    }),
    fcraLanguage: nonEmptyText('legalInformation.fcraLanguage', 10_000),
    consentstoTcpa: z.optional(consentString('legalInformation.consentstoTcpa')),
    tcpaLanguage: z.optional(text('legalInformation.tcpaLanguage', 10_000)),
  })
  .check(
    z.refine((l) => l.consentstoTcpa !== 'true' || (l.tcpaLanguage ?? '').length > 0, {
      error:
        'legalInformation.tcpaLanguage is required when consentstoTcpa is "true": send the TCPA text shown',
      path: ['tcpaLanguage'],
    }),
  )

export const leadSessionInformationSchema = z.looseObject({
  ipAddress,
  userAgent: nonEmptyText('sessionInformation.userAgent', 2048),
})

const leadFields = {
  personalInformation: leadPersonalInformationSchema,
  loanInformation: loanInformationSchema,
  mortgageInformation: z.optional(mortgageInformationSchema),
  creditInformation: creditInformationSchema,
  // Seed 001 leaves the object's availability unspecified, but one of its incomes is always present,
  // so the object is required (README, Decisions).
  financialInformation: financialInformationSchema,
  legalInformation: legalInformationSchema,
}

/** The lead as a partner receives it. */
export const leadSchema = z.looseObject({ ...leadFields, sessionInformation: leadSessionInformationSchema })
export type Lead = z.infer<typeof leadSchema>

/** The lead as a publisher submits it to the BFF: session information is always rebuilt server-side. */
export const leadInputSchema = z.looseObject({ ...leadFields, sessionInformation: z.optional(z.unknown()) })
export type LeadInput = z.infer<typeof leadInputSchema>

/** The fields seed 001 marks "conditional": required when a partner returns several product types. */
export const CONDITIONAL_OFFER_FIELDS = [
  'name',
  'display_name',
  'offer_details',
  'product_type',
  'logo_src',
] as const

export const partnerOfferSchema = z.looseObject({
  rate: z
    .number({ error: 'offers[].rate must be a number' })
    .check(z.gte(0, { error: 'offers[].rate must not be negative' })),
  click_url: z.url({
    protocol: /^https?$/,
    hostname: z.regexes.hostname,
    error: 'offers[].click_url must be an absolute http(s) URL',
  }),
  name: z.optional(text('offers[].name', 200)),
  display_name: z.optional(text('offers[].display_name', 200)),
  offer_details: z.optional(text('offers[].offer_details', 5000)),
  product_type: z.optional(nonEmptyText('offers[].product_type', 100)),
  logo_src: z.optional(text('offers[].logo_src', 2048)),
})
export type PartnerOffer = z.infer<typeof partnerOfferSchema>

const leadId = nonEmptyText('lead_id', 200)

export const approvedReplySchema = z.looseObject({
  status: z.literal('approved'),
  lead_id: leadId,
  reason: z.optional(z.string()),
  offers: z.array(partnerOfferSchema, { error: 'offers is required with status "approved"' }).check(
    z.minLength(1, {
      error: 'offers must hold at least one offer with status "approved"; use "rejected" otherwise',
    }),
    z.maxLength(50, { error: 'offers takes at most 50 offers per reply' }),
    z.superRefine((offers, ctx) => {
      for (const issue of conditionalFieldIssues(offers))
        ctx.issues.push({ code: 'custom', input: offers, ...issue })
    }),
  ),
})

export const rejectedReplySchema = z.looseObject({
  status: z.literal('rejected'),
  lead_id: leadId,
  reason: nonEmptyText('reason', 2000),
  offers: z.optional(z.array(z.unknown())),
})

export const errorReplySchema = z.looseObject({
  status: z.literal('error'),
  lead_id: leadId,
  reason: nonEmptyText('reason', 2000),
  offers: z.optional(z.array(z.unknown())),
})

export const partnerReplySchema = z.discriminatedUnion(
  'status',
  [approvedReplySchema, rejectedReplySchema, errorReplySchema],
  {
    error: 'status must be "approved", "rejected" or "error"',
  },
)
export type PartnerReply = z.infer<typeof partnerReplySchema>
export type ApprovedReply = z.infer<typeof approvedReplySchema>

/**
 * Seed 001: conditional fields are "required when the partner returns several types of offers". A reply
 * with several offers must label each with `product_type`; when those types differ, every conditional field
 * is required on every offer (README, Decisions).
 */
export function conditionalFieldIssues(
  offers: ReadonlyArray<Partial<Record<(typeof CONDITIONAL_OFFER_FIELDS)[number], unknown>>>,
): Array<{ path: (string | number)[]; message: string }> {
  if (offers.length < 2) return []
  const issues: Array<{ path: (string | number)[]; message: string }> = []
  const types = new Set(offers.map((o) => o.product_type))
  const required = types.size > 1 ? CONDITIONAL_OFFER_FIELDS : (['product_type'] as const)
  offers.forEach((offer, index) => {
    for (const field of required) {
      if (offer[field] === undefined || offer[field] === '') {
        issues.push({
          path: [index, field],
          message: `offers.${index}.${field} is required when a reply carries several ${types.size > 1 ? 'product types' : 'offers'}`,
        })
      }
    }
  })
  return issues
}
