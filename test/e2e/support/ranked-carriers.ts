/** @module What a sandbox scenario must end up showing: its active offers' carriers by rank, best first. */
import { carrierById } from '../../../src/sandbox/carriers.ts'
import { scenarioForZip } from '../../../src/sandbox/scenarios.ts'

export function rankedCarriers(zip: string): (string | undefined)[] {
  return scenarioForZip(zip)
    .partners.flatMap((response) => response.offers)
    .filter((offer) => (offer.status ?? 'active') === 'active')
    .sort((a, b) => a.rank - b.rank)
    .map((offer) => offer.financialInstitutionDisplayName ?? carrierById(offer.carrier)?.name)
}
