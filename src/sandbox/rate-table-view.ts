/**
 * @module Derives a rate table from its record and the current time: a partner has answered once
 * `createdAt + delay <= now`, its offers join `offers` and it leaves `pendingResponses`. Pure, so fake
 * clocks work and nothing runs in the background.
 */
import {
  AUTOMOBILE_INSURANCE,
  type Offer,
  type PendingResponse,
  type RateTable,
} from '../contract/offer-search.ts'
import { carrier } from './carriers.ts'
import type { SandboxPartner } from './partners.ts'
import { type Random, randomUuid, seededRandom } from './random.ts'
import type { RateTableRecord } from './rate-table-store.ts'
import type { OfferTemplate } from './scenarios.ts'

/**
 * Which response the rate table goes into. docs/offer-search-api.md says `productVersions`, `createdAt`, `updatedAt` are
 * "Present in the create response" and `impressionTrackingPixelUrls` "Present in the polling response".
 * We send the first three only on create, so no client comes to rely on them while polling; pixels go in
 * both, because a search complete at creation is never polled and its pixels would be lost.
 */
export type ResponseKind = 'create' | 'poll'

type FullOffer = Offer & { productVersions: number[]; createdAt: string; updatedAt: string }

const HEADLINES = [
  (name: string, n: number) => `Save up to $${300 + (n % 600)} a year with ${name}`,
  (name: string, n: number) => `${name}: drivers like you pay as little as $${39 + (n % 60)}/mo`,
  (name: string) => `Get your personalized ${name} rate in about 2 minutes`,
  (name: string) => `${name} rewards safe drivers with an extra discount`,
]

const POINTS = [
  'Bundle home and auto for extra savings',
  '24/7 claims support by phone and app',
  'Accident forgiveness on eligible policies',
  'Discounts for safe drivers and good students',
  'Roadside assistance available',
  'Pay monthly or in full, no fees online',
  'Digital ID cards in the app',
  'Rental reimbursement while your car is repaired',
]

const iso = (ms: number) => new Date(ms).toISOString()

function buildOffer(template: OfferTemplate, random: Random, base: string, answeredAtMs: number): FullOffer {
  // Every draw happens whatever the template overrides, so one template's copy never shifts another's ids.
  const uuid = randomUuid(random)
  const version = 1 + Math.floor(random() * 3)
  const n = Math.floor(random() * 10_000)
  const headline = HEADLINES[n % HEADLINES.length] ?? HEADLINES[2]
  const start = Math.floor(random() * POINTS.length)
  const pointCount = 2 + Math.floor(random() * 3)
  const updateLagMs = Math.floor(random() * 400)
  const who = carrier(template.carrier)
  const pixels = template.pixels ?? 2
  return {
    uuid,
    version,
    productVersions: version === 1 ? [1] : [1, version],
    rank: template.rank,
    // Rises with rank on purpose: docs/offer-search-api.md says use `rank`, and a client sorting by score shows it wrong.
    recommendationScore: Math.round((0.3 + template.rank * 0.06 + (n % 100) / 10_000) * 10_000) / 10_000,
    headline: template.headline ?? headline?.(who.name, n) ?? who.name,
    descriptionPoints:
      template.descriptionPoints ??
      Array.from({ length: pointCount }, (_, i) => POINTS[(start + i) % POINTS.length] as string),
    productType: AUTOMOBILE_INSURANCE,
    productDisplayName: template.productDisplayName ?? 'Auto Insurance',
    status: template.status ?? 'active',
    isMonetized: template.isMonetized ?? true,
    url: `${base}/landing/${uuid}?monetized=1`,
    unmonetizedUrl: `${base}/landing/${uuid}?monetized=0`,
    impressionTrackingPixelUrls: Array.from(
      { length: pixels },
      (_, i) => `${base}/pixels/${uuid}/${i + 1}.gif`,
    ),
    financialInstitutionUuid: who.uuid,
    financialInstitutionDisplayName: template.financialInstitutionDisplayName ?? who.name,
    financialInstitutionImageUrl: `${base}/logos/carriers/${who.id}.svg`,
    createdAt: iso(answeredAtMs),
    updatedAt: iso(answeredAtMs + updateLagMs),
  }
}

function partnerObject(partner: SandboxPartner, base: string): PendingResponse['partner'] {
  return {
    uuid: partner.uuid,
    name: partner.name,
    brandName: partner.brandName,
    brandUuid: partner.brandUuid,
    imageUrl: `${base}/logos/partners/${partner.slug}.svg`,
    description: partner.description,
    disclaimer: partner.disclaimer,
    supportsPreSelect: partner.supportsPreSelect,
    shouldDisplayPreSelect: partner.shouldDisplayPreSelect,
    supportsPersonalizedOffers: partner.supportsPersonalizedOffers,
  }
}

/** The rate table as it stands at `nowMs`. */
export function rateTableAt(record: RateTableRecord, nowMs: number, kind: ResponseKind): RateTable {
  const random = seededRandom(record.seed)
  const elapsed = nowMs - record.createdAtMs
  // Answer order, not template order: a stable sort keeps equal delays in template order.
  const responses = [...record.scenario.partners].sort((a, b) => a.delayMs - b.delayMs)
  const answered: FullOffer[] = []
  const pendingResponses: PendingResponse[] = []
  for (const response of responses) {
    const answeredAtMs = record.createdAtMs + response.delayMs
    // Build every offer, even of pending partners, so the random stream (and so every uuid) never shifts.
    const offers = response.offers.map((template) =>
      buildOffer(template, random, record.publicBase, answeredAtMs),
    )
    if (response.delayMs <= elapsed) {
      answered.push(...offers)
    } else {
      pendingResponses.push({
        partner: partnerObject(response.partner, record.publicBase),
        offerCatalogProductTypes: [AUTOMOBILE_INSURANCE],
      })
    }
  }
  return {
    uuid: record.uuid,
    leadUuid: record.leadUuid,
    offers: answered.map((offer) => {
      if (kind === 'create') return offer
      const { productVersions: _v, createdAt: _c, updatedAt: _u, ...rest } = offer
      return rest
    }),
    pendingResponses,
    createdAt: iso(record.createdAtMs),
  }
}
