/**
 * @module fast-check generators of valid wire objects for both interfaces, shared by the contract tests.
 */
import fc from 'fast-check'
import { US_STATES } from '../../../src/contract/partner.ts'
import { MAX_SUB_IDS, MAX_VEHICLES, MIN_VEHICLES } from '../../../src/contract/search-fields.ts'

const uuid = fc.uuid()
const word = fc.string({ minLength: 1, maxLength: 20 })
const isoDate = fc
  .date({ min: new Date('1930-01-01T00:00:00Z'), max: new Date('2008-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10))
const timestamp = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString())
const zip = fc.stringMatching(/^\d{5}$/)
const url = fc.webUrl()

const partnerArb = fc.record({
  uuid,
  name: word,
  brandName: word,
  brandUuid: uuid,
  imageUrl: url,
  description: fc.string({ maxLength: 40 }),
  disclaimer: fc.string({ maxLength: 80 }),
  supportsPreSelect: fc.boolean(),
  shouldDisplayPreSelect: fc.boolean(),
  supportsPersonalizedOffers: fc.boolean(),
})

/** Every Offer field docs/offer-search-api.md lists without a "present in" qualifier. */
export const OFFER_REQUIRED_FIELDS = [
  'uuid',
  'version',
  'rank',
  'recommendationScore',
  'headline',
  'descriptionPoints',
  'productType',
  'productDisplayName',
  'status',
  'isMonetized',
  'url',
  'unmonetizedUrl',
  'financialInstitutionUuid',
  'financialInstitutionDisplayName',
  'financialInstitutionImageUrl',
] as const

export const offerArb = fc.record(
  {
    uuid,
    version: fc.integer({ min: 1, max: 10 }),
    productVersions: fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }),
    rank: fc.integer({ min: 1, max: 50 }),
    recommendationScore: fc.double({ min: 0, max: 1, noNaN: true }),
    headline: word,
    descriptionPoints: fc.array(word, { maxLength: 4 }),
    productType: fc.constant('AutomobileInsurance'),
    productDisplayName: word,
    status: fc.constantFrom('active', 'inactive', 'expired'),
    isMonetized: fc.boolean(),
    url,
    unmonetizedUrl: url,
    impressionTrackingPixelUrls: fc.array(url, { maxLength: 3 }),
    financialInstitutionUuid: uuid,
    financialInstitutionDisplayName: word,
    financialInstitutionImageUrl: url,
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  { requiredKeys: [...OFFER_REQUIRED_FIELDS] },
)

export const rateTableArb = fc.record({
  uuid,
  leadUuid: uuid,
  offers: fc.array(offerArb, { maxLength: 5 }),
  pendingResponses: fc.array(
    fc.record({ partner: partnerArb, offerCatalogProductTypes: fc.constant(['AutomobileInsurance']) }),
    { maxLength: 3 },
  ),
  createdAt: timestamp,
})

export const issuerArb = fc.record({ id: word, name: word, logoImageUrl: url })

export const offerSearchRequestArb = fc.record(
  {
    productTypes: fc.constant(['AutomobileInsurance']),
    sessionInformation: fc.record({
      ipAddress: fc.oneof(fc.ipV4(), fc.ipV6()),
      userAgent: fc.string({ minLength: 1, maxLength: 200 }),
    }),
    autoInsuranceInformation: fc.record(
      {
        currentIssuer: word,
        numberOfVehicles: fc.integer({ min: MIN_VEHICLES, max: MAX_VEHICLES }),
        policyHolderInformation: fc.record(
          { isHomeOwner: fc.boolean(), isMilitary: fc.boolean() },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    personalInformation: fc.record({ zipCode: zip, dateOfBirth: isoDate }, { requiredKeys: [] }),
    clientTags: fc.record({ subId: fc.array(word, { maxLength: MAX_SUB_IDS }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['productTypes', 'sessionInformation'] },
)

const ssn = fc.stringMatching(/^9\d{2}-\d{2}-\d{4}$/)
const phone = fc.integer({ min: 100, max: 199 }).map((n) => `201-555-01${String(n).slice(1)}`)

const credit = fc.oneof(
  fc.record({ providedCreditRating: fc.constantFrom('excellent', 'good', 'fair', 'poor') }),
  fc.record({ providedNumericCreditScore: fc.integer({ min: 300, max: 850 }) }),
)
const income = fc.oneof(
  fc.record({ annualIncome: fc.integer({ min: 0, max: 500_000 }) }),
  fc.record({ monthlyNetIncome: fc.integer({ min: 0, max: 40_000 }) }),
  fc.record({
    annualIncome: fc.integer({ min: 0, max: 500_000 }),
    monthlyNetIncome: fc.integer({ min: 0, max: 40_000 }),
  }),
)
const legal = fc.oneof(
  fc.record({ consentsToFcra: fc.constant('true'), fcraLanguage: word }),
  fc.record({
    consentsToFcra: fc.constant('true'),
    fcraLanguage: word,
    consentstoTcpa: fc.constant('false'),
  }),
  fc.record({
    consentsToFcra: fc.constant('true'),
    fcraLanguage: word,
    consentstoTcpa: fc.constant('true'),
    tcpaLanguage: word,
  }),
)

export const leadArb = fc.record({
  personalInformation: fc.record(
    {
      firstName: word,
      lastName: word,
      email: fc.stringMatching(/^[a-z]{1,10}@example\.com$/),
      city: word,
      state: fc.constantFrom(...US_STATES),
      primaryPhone: phone,
      address1: word,
      address2: word,
      zipcode: zip,
      dateOfBirth: isoDate,
      ssn,
    },
    {
      requiredKeys: [
        'firstName',
        'lastName',
        'email',
        'city',
        'state',
        'primaryPhone',
        'address1',
        'zipcode',
        'dateOfBirth',
        'ssn',
      ],
    },
  ),
  loanInformation: fc.record(
    {
      purpose: fc.constantFrom('debt_consolidation', 'home_improvement', 'auto'),
      loanAmount: fc.integer({ min: 500, max: 100_000 }),
    },
    { requiredKeys: ['purpose'] },
  ),
  creditInformation: credit,
  financialInformation: income,
  legalInformation: legal,
  sessionInformation: fc.record({ ipAddress: fc.ipV4(), userAgent: word }),
})

const partnerOffer = (productType: string) =>
  fc.record({
    rate: fc.double({ min: 0, max: 500, noNaN: true }),
    click_url: fc.webUrl({ validSchemes: ['https'] }),
    name: word,
    display_name: word,
    offer_details: word,
    product_type: fc.constant(productType),
    logo_src: fc.webUrl({ validSchemes: ['https'] }),
  })

export const partnerReplyArb = fc.oneof(
  fc.record({
    status: fc.constant('approved' as const),
    lead_id: word,
    offers: fc
      .constantFrom('personal_loan', 'debt_relief')
      .chain((t) => fc.array(partnerOffer(t), { minLength: 1, maxLength: 5 })),
  }),
  fc.record({ status: fc.constantFrom('rejected' as const, 'error' as const), lead_id: word, reason: word }),
)
