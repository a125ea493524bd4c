/**
 * @module Sample issuers, partners and offers for the playground and the widget tests. Plain data with
 * overridable defaults; every URL points at the fake asset host the handlers serve.
 */
import type { ConsentTexts } from '../../contract/consent.ts'
import type { Issuer, Offer, Partner } from '../../contract/offer-search.ts'
import type { LeadInput } from '../../contract/partner.ts'
import { SAMPLE_FCRA_TEXT, SAMPLE_TCPA_TEXT, sampleLeads } from '../../partner-kit/sample-leads.ts'

export const ASSET_ORIGIN = 'https://assets.offer-widget.test'
export const CARRIER_ORIGIN = 'https://carrier.offer-widget.test'

const logoUrl = (name: string) => `${ASSET_ORIGIN}/logos/${encodeURIComponent(name)}.svg`
const pixelUrl = (offerUuid: string, n: number) => `${ASSET_ORIGIN}/pixels/${offerUuid}/${n}.gif`

export const issuers: Issuer[] = [
  { id: 'acme', name: 'Acme Mutual', logoImageUrl: logoUrl('acme') },
  { id: 'bluebonnet', name: 'Bluebonnet Insurance', logoImageUrl: logoUrl('bluebonnet') },
  { id: 'cardinal', name: 'Cardinal Auto', logoImageUrl: logoUrl('cardinal') },
  { id: 'delta', name: 'Delta Direct', logoImageUrl: logoUrl('delta') },
]

let counter = 0
/** Unique, valid 8-4-4-4-12 ids, deterministic in order so failures are readable. */
export function fakeUuid(prefix = 0): string {
  counter += 1
  const hex = counter.toString(16).padStart(12, '0')
  return `${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${hex}`
}

export function makePartner(overrides: Partial<Partner> & { name: string }): Partner {
  return {
    uuid: fakeUuid(1),
    brandName: overrides.name,
    brandUuid: fakeUuid(2),
    imageUrl: logoUrl(overrides.name.toLowerCase().replace(/\W+/g, '-')),
    description: '',
    disclaimer: '',
    supportsPreSelect: false,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: true,
    ...overrides,
  }
}

export function makeOffer(overrides: Partial<Offer> & { rank: number }): Offer {
  const uuid = overrides.uuid ?? fakeUuid(3)
  const carrier = overrides.financialInstitutionDisplayName ?? 'Acme Mutual'
  return {
    uuid,
    version: 1,
    productVersions: [1],
    recommendationScore: 0.5,
    headline: `Save with ${carrier}`,
    descriptionPoints: ['Bundling discount available', 'Claims handled 24/7'],
    productType: 'AutomobileInsurance',
    productDisplayName: 'Auto insurance',
    status: 'active',
    isMonetized: true,
    url: `${CARRIER_ORIGIN}/click/${uuid}`,
    unmonetizedUrl: `${CARRIER_ORIGIN}/quote/${uuid}`,
    impressionTrackingPixelUrls: [pixelUrl(uuid, 1), pixelUrl(uuid, 2)],
    financialInstitutionUuid: fakeUuid(4),
    financialInstitutionDisplayName: carrier,
    financialInstitutionImageUrl: logoUrl(carrier.toLowerCase().replace(/\W+/g, '-')),
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
    ...overrides,
  }
}

/**
 * The synthetic loan lead for second-look stories and tests: the partner kit's complete sample (reserved
 * SSN range, example.com email, a 555-01xx phone number), so one set of sample leads serves the checker,
 * the playground and the tests. Session information is left out on purpose: the BFF takes it from the
 * request.
 */
export const SAMPLE_LEAD: LeadInput = (() => {
  const sample = sampleLeads().find((candidate) => candidate.id === 'complete')
  if (!sample)
    throw new Error('src/partner-kit/sample-leads.ts no longer has the "complete" lead: pick another')
  const { sessionInformation: _session, ...lead } = sample.lead
  return lead
})()

/**
 * The consent texts the fake BFF serves and accepts: the sandbox's built-in ones (the partner kit's sample
 * texts, which the sample leads carry), with short fixed ids where the real BFF hashes the text.
 */
export const SAMPLE_CONSENT_TEXTS: ConsentTexts = {
  version: 'sandbox',
  fcra: { id: 'sample-fcra', text: SAMPLE_FCRA_TEXT },
  tcpa: { id: 'sample-tcpa', text: SAMPLE_TCPA_TEXT },
}
