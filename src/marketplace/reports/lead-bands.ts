/**
 * @module The coarse dimensions a partner report breaks its leads down by, taken from the lead once at
 * intake and stored with it (docs/decisions/0112-offer-outcomes.md): credit band, loan purpose and amount
 * band. None identifies an applicant alone, and none keeps free text: a purpose or rating outside our lists
 * (docs/partner-interface.md, "Enumerated values") is `other`, so what a visitor typed never reaches a report.
 */
import type { Lead } from '../../contract/partner.ts'
import { LOAN_CHOICES } from '../../widget/loan-application/loan-choices.ts'

/** Upper bounds (exclusive, USD) of the amount bands, with their names; the last band has no bound. */
const AMOUNT_BANDS: ReadonlyArray<readonly [below: number, band: string]> = [
  [1_000, 'under_1k'],
  [5_000, '1k_5k'],
  [10_000, '5k_10k'],
  [25_000, '10k_25k'],
  [50_000, '25k_50k'],
]
const TOP_AMOUNT_BAND = '50k_plus'
/** No `loanAmount` in the lead (the interface has it as "not always"). */
const NO_AMOUNT = 'not_given'

/** The four ratings docs/partner-interface.md lists, with the lowest score of each. */
const CREDIT_BANDS: ReadonlyArray<readonly [min: number, band: string]> = [
  [740, 'excellent'],
  [670, 'good'],
  [580, 'fair'],
  [300, 'poor'],
]
const PURPOSES: ReadonlySet<string> = new Set(LOAN_CHOICES.purpose.map(([value]) => value))

export function amountBand(amount: number | undefined): string {
  if (amount === undefined) return NO_AMOUNT
  return AMOUNT_BANDS.find(([below]) => amount < below)?.[1] ?? TOP_AMOUNT_BAND
}

/** A numeric score by our bands; a stated rating when it is one of ours (any case), else `other`. */
export function creditBand(credit: Lead['creditInformation']): string {
  const score = credit.providedNumericCreditScore
  if (score !== undefined) return CREDIT_BANDS.find(([min]) => score >= min)?.[1] ?? 'poor'
  const rating = credit.providedCreditRating?.trim().toLowerCase()
  return CREDIT_BANDS.some(([, band]) => band === rating) ? (rating as string) : 'other'
}

export function loanPurpose(purpose: string): string {
  const value = purpose.trim().toLowerCase()
  return PURPOSES.has(value) ? value : 'other'
}

/** The lead's report dimensions, as stored with it. */
export function leadBands(lead: Lead): { creditBand: string; loanPurpose: string; amountBand: string } {
  return {
    creditBand: creditBand(lead.creditInformation),
    loanPurpose: loanPurpose(lead.loanInformation.purpose),
    amountBand: amountBand(lead.loanInformation.loanAmount),
  }
}
