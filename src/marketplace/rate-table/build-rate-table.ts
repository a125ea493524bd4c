/**
 * @module The second-look lead as a rate table (docs/offer-search-api.md's shape), so the widget's polling hook serves it
 * unchanged: partners still awaited in `pendingResponses`, the auction's winners in `offers` once settled,
 * each with its partner's disclaimer, and the `secondLook` progress (docs/partner-interface.md).
 */
import type { Partner, RateTable } from '../../contract/offer-search.ts'
import type { SearchSnapshot } from '../../ledger/index.ts'
import type { OfferLinker } from '../clicks/offer-links.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'
import { type ProgressWindows, secondLookProgress } from './second-look-progress.ts'
import { toWidgetOffer } from './to-widget-offer.ts'

/**
 * A lead still pending this long after its deadline is shown complete, so the widget stops polling. A lead
 * whose replica died is taken over and settled well before (a lease, 3 s); what is still pending here is a
 * lead no replica can write (the ledger is away), and the widget's own 30 s bound has ended its polling.
 * docs/partner-interface.md says the same 10 s.
 */
export const ORPHAN_GRACE_MS = 10_000

export function buildRateTable(
  snapshot: SearchSnapshot,
  registry: ReadonlyMap<string, PartnerRegistryEntry>,
  options: { links: OfferLinker; now: number } & ProgressWindows,
): RateTable {
  const { lead } = snapshot
  const orphaned = lead.status === 'pending' && options.now > lead.deadlineAt.getTime() + ORPHAN_GRACE_MS
  return {
    uuid: lead.searchUuid,
    leadUuid: lead.id,
    offers: snapshot.displayed.map((offer) =>
      toWidgetOffer(offer, displayOf(registry, offer.partnerId), options.links(offer.id)),
    ),
    pendingResponses: orphaned
      ? []
      : snapshot.pending.map(({ partnerId }) => {
          const entry = registry.get(partnerId)
          return {
            partner: toPartner(entry, partnerId),
            offerCatalogProductTypes: [entry?.display.productType ?? 'loan'],
          }
        }),
    createdAt: lead.createdAt.toISOString(),
    secondLook: secondLookProgress(snapshot, registry, options, orphaned || lead.status !== 'pending'),
  }
}

function toPartner(entry: PartnerRegistryEntry | undefined, partnerId: string): Partner {
  return {
    uuid: partnerId,
    name: entry?.name ?? partnerId,
    brandName: entry?.display.name ?? partnerId,
    brandUuid: partnerId,
    imageUrl: entry?.display.logoUrl ?? '',
    description: entry?.display.copy ?? '',
    // A partner's disclaimer travels only on its displayed offers (`offer.disclaimer`): a partner still
    // awaited may reject the lead, and its licence text must never stand beside another lender's offer.
    disclaimer: '',
    supportsPreSelect: false,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: false,
  }
}

function displayOf(registry: ReadonlyMap<string, PartnerRegistryEntry>, partnerId: string) {
  const entry = registry.get(partnerId)
  return (
    entry?.display ?? {
      name: partnerId,
      logoUrl: '',
      productType: 'loan',
      productDisplayName: 'Loan',
      copy: '',
      disclaimer: '',
    }
  )
}
