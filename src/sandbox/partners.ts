/**
 * @module The sandbox partners (the offer search API's lead-gen partners, not the second look's simulated
 * partners in src/partner-kit/simulated-partners.ts): the Partner objects that appear in `pendingResponses` while
 * a partner is awaited. Disclaimers differ on purpose: some populated (they must be shown), some empty.
 */

export interface SandboxPartner {
  uuid: string
  name: string
  brandName: string
  brandUuid: string
  /** Path segment of the partner's logo under `/logos/partners/`. */
  slug: string
  color: string
  description: string
  disclaimer: string
  supportsPreSelect: boolean
  shouldDisplayPreSelect: boolean
  supportsPersonalizedOffers: boolean
}

const LONG_LICENSE =
  'Northstar Direct Insurance Services, Inc. is a licensed insurance producer in all 50 states and the ' +
  'District of Columbia (CA License #0N41822; NY License #LA-1180432; TX License #2291178). Quotes shown ' +
  'are estimates based on the information you provided and are not an offer of coverage. Final premium ' +
  'is determined by the carrier after underwriting, which may include a review of your driving record, ' +
  'claims history and, where permitted by law, an insurance score. Northstar Direct may receive ' +
  'compensation from carriers whose offers appear here; compensation may affect the order of offers.'

export const PARTNERS = {
  brightway: {
    uuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e01',
    name: 'Brightway Quotes LLC',
    brandName: 'Brightway Quotes',
    brandUuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e91',
    slug: 'brightway-quotes',
    color: '#dd6b20',
    description: 'Compare auto insurance rates from top carriers in minutes.',
    disclaimer:
      'Brightway Quotes LLC is a licensed insurance agency (CA License #0K12345). Rates are estimates ' +
      'and subject to carrier underwriting.',
    supportsPreSelect: true,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: true,
  },
  meridian: {
    uuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e02',
    name: 'Meridian Insurance Agency, Inc.',
    brandName: 'Meridian',
    brandUuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e92',
    slug: 'meridian',
    color: '#2f855a',
    description: '',
    disclaimer: '',
    supportsPreSelect: false,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: false,
  },
  northstar: {
    uuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e03',
    name: 'Northstar Direct Insurance Services, Inc.',
    brandName: 'Northstar Direct',
    brandUuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e93',
    slug: 'northstar-direct',
    color: '#2a4365',
    description: 'Licensed agents and instant online quotes.',
    disclaimer: LONG_LICENSE,
    supportsPreSelect: true,
    shouldDisplayPreSelect: true,
    supportsPersonalizedOffers: true,
  },
  pinecrest: {
    uuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e04',
    name: 'Pinecrest Auto Partners',
    brandName: 'Pinecrest',
    brandUuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e94',
    slug: 'pinecrest',
    color: '#276749',
    description: '',
    disclaimer: '',
    supportsPreSelect: false,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: true,
  },
  tortoise: {
    uuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e05',
    name: 'Tortoise Rating Services',
    brandName: 'Tortoise',
    brandUuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e95',
    slug: 'tortoise',
    color: '#718096',
    description: 'Thorough quotes, eventually.',
    disclaimer: 'Tortoise Rating Services is a licensed producer (TX License #1999001).',
    supportsPreSelect: false,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: false,
  },
  oakline: {
    uuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e06',
    name: 'Oakline Insurance Brokerage',
    brandName: 'Oakline',
    brandUuid: '7a0e5c11-2f3b-4c6d-8e9f-1a2b3c4d5e96',
    slug: 'oakline',
    color: '#744210',
    description: 'Independent brokerage since 1987.',
    disclaimer:
      'Oakline Insurance Brokerage.\nLicensed in AL, AZ, CO, FL, GA, IL, NC, OH, PA and TX.\n' +
      'Not all carriers are available in all states.',
    supportsPreSelect: true,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: false,
  },
} as const satisfies Record<string, SandboxPartner>

export function partnerBySlug(slug: string): SandboxPartner | undefined {
  return Object.values(PARTNERS).find((partner) => partner.slug === slug)
}
