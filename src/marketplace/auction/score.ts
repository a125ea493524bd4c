/**
 * @module How an offer's `recommendationScore` is derived. docs/partner-interface.md: "How `recommendationScore` is derived
 * from an offer: not shown." Ours: the bid (`rate`) times the partner's `scoreFactor` from the registry, so
 * the operator can weigh a partner's conversion quality against its price. One replaceable function.
 */

export type Scorer = (offer: { rate: number }, partner: { scoreFactor: number }) => number

export const scoreOffer: Scorer = (offer, partner) => offer.rate * partner.scoreFactor
