/**
 * @module The reference partner's lending rules: every decision it makes, in one readable place. A partner
 * replaces this file's contents with its own underwriting; the marketplace's simulated partners reuse it.
 * The numbers are illustrative, not credit or legal advice. Pure: no I/O, no clock (the caller passes `now`).
 */
import type { PartnerLoanTerms, Range } from '../contract/loan-terms.ts'
import { monthlyPayment } from '../contract/monthly-payment.ts'
import type { Lead, UsState } from '../contract/partner.ts'

export type CreditTier = 'excellent' | 'good' | 'fair' | 'poor'
export type ProductType = 'installment_loan' | 'debt_relief'

/** Numeric score bands, highest first (FICO-like 300–850). */
export const SCORE_BANDS: ReadonlyArray<{ min: number; tier: CreditTier }> = [
  { min: 740, tier: 'excellent' },
  { min: 670, tier: 'good' },
  { min: 580, tier: 'fair' },
  { min: 300, tier: 'poor' },
]

/**
 * Self-reported ratings we price. docs/partner-interface.md: allowed values of `providedCreditRating` are "not shown", so we
 * read them case-insensitively and reject the ones we do not know, saying which we do.
 */
const RATING_TIERS: Readonly<Record<string, CreditTier>> = {
  excellent: 'excellent',
  'very good': 'good',
  good: 'good',
  fair: 'fair',
  average: 'fair',
  poor: 'poor',
  'very poor': 'poor',
  bad: 'poor',
}

const MINIMUM_AGE = 18

export interface ProductRule {
  /** Credit tiers this product is offered to. */
  tiers: readonly CreditTier[]
  /** Lowest yearly income (USD) we lend against; `monthlyNetIncome` counts twelve times. */
  minAnnualIncome: number
  /** Accepted `loanAmount` range (USD) when the lead sends one. */
  loanAmount: { min: number; max: number }
  /** Where we do not offer the product (licensing): a per-state rule, as most lenders have. */
  excludedStates: readonly UsState[]
  /** Our bid (`rate`, USD per click) by tier. */
  bids: Readonly<Partial<Record<CreditTier, number>>>
  /** Repayment term offered, in months (shown to the lead with the amount). */
  termMonths: { min: number; max: number }
  /**
   * Copy shown to the lead after the amount and term: each entry a short sentence (a bullet on the card).
   * The lender's name is the partner's (`display_name`), never the product's.
   */
  highlights: readonly string[]
  /**
   * What we quote as figures (`loan_terms`, docs/partner-interface.md "Loan terms") by tier, for a loan with an
   * APR; none for debt relief, which charges a fee on the debt settled and has no APR to quote.
   */
  quotes?: {
    aprPercent: Readonly<Partial<Record<CreditTier, Range>>>
    originationFeePercent: Readonly<Partial<Record<CreditTier, Range>>>
    /** The amount range quoted around the asked amount: this share below and above it, within `loanAmount`. */
    amountSpread: number
    /** Loan purposes for which the loan is secured, and by what (an auto loan by the vehicle it buys). */
    securedFor: Readonly<Record<string, NonNullable<PartnerLoanTerms['secured']>['by']>>
  }
}

export const PRODUCT_RULES: Readonly<Record<ProductType, ProductRule>> = {
  installment_loan: {
    tiers: ['excellent', 'good', 'fair'],
    minAnnualIncome: 24_000,
    loanAmount: { min: 1_000, max: 50_000 },
    excludedStates: ['NY', 'VT', 'WV'],
    bids: { excellent: 42, good: 30, fair: 14.5 },
    termMonths: { min: 24, max: 60 },
    highlights: ['Fixed rate, fixed monthly payment.', 'No prepayment penalty.'],
    quotes: {
      aprPercent: {
        excellent: { min: 7.99, max: 15.99 },
        good: { min: 11.99, max: 24.99 },
        fair: { min: 17.99, max: 35.99 },
      },
      originationFeePercent: {
        excellent: { min: 0, max: 3 },
        good: { min: 1, max: 5 },
        fair: { min: 3, max: 8 },
      },
      amountSpread: 0.2,
      securedFor: { auto: 'vehicle' },
    },
  },
  debt_relief: {
    tiers: ['fair', 'poor'],
    minAnnualIncome: 18_000,
    loanAmount: { min: 7_500, max: 100_000 },
    excludedStates: ['PR', 'VI'],
    bids: { fair: 12, poor: 8.25 },
    termMonths: { min: 24, max: 48 },
    highlights: ['One monthly payment.', 'No upfront fees.'],
  },
}

export interface OfferDecision {
  product_type: ProductType
  bid: number
  /** The figures we quote, when the product has an APR (`loanTerms`). */
  loan_terms?: PartnerLoanTerms
}

export type Decision =
  | { status: 'approved'; offers: OfferDecision[] }
  | { status: 'rejected'; reason: string }

/** Credit tier from whichever of the two conditional credit fields the lead carries. */
export function creditTier(credit: Lead['creditInformation']): CreditTier | undefined {
  if (credit.providedNumericCreditScore !== undefined) {
    const score = credit.providedNumericCreditScore
    return SCORE_BANDS.find((band) => score >= band.min)?.tier ?? 'poor'
  }
  const rating = credit.providedCreditRating?.trim().toLowerCase().replace(/[_-]+/g, ' ')
  return rating === undefined ? undefined : RATING_TIERS[rating]
}

/** Yearly income: `annualIncome` when sent, else twelve months of `monthlyNetIncome`. */
export function annualIncome(financial: Lead['financialInformation']): number {
  return financial.annualIncome ?? (financial.monthlyNetIncome ?? 0) * 12
}

/** Whole years between `dateOfBirth` (YYYY-MM-DD) and `now`, in UTC. */
export function ageOn(dateOfBirth: string, now: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number]
  const beforeBirthday =
    now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day)
  return now.getUTCFullYear() - year - (beforeBirthday ? 1 : 0)
}

/** Why `lead` does not qualify for `rule`, or undefined when it does. */
function productRefusal(rule: ProductRule, lead: Lead, tier: CreditTier): string | undefined {
  const amount = lead.loanInformation.loanAmount
  if (!rule.tiers.includes(tier)) return `credit tier ${tier} is not one we offer it to`
  if (rule.excludedStates.includes(lead.personalInformation.state))
    return `not offered in ${lead.personalInformation.state}`
  if (annualIncome(lead.financialInformation) < rule.minAnnualIncome)
    return `income below ${rule.minAnnualIncome} USD a year`
  if (amount !== undefined && (amount < rule.loanAmount.min || amount > rule.loanAmount.max))
    return `loan amount outside ${rule.loanAmount.min}-${rule.loanAmount.max} USD`
  return undefined
}

/** The decision for a lead that already passed the contract's validation. */
export function decideLead(lead: Lead, now: Date): Decision {
  if (ageOn(lead.personalInformation.dateOfBirth, now) < MINIMUM_AGE)
    return { status: 'rejected', reason: `applicant must be ${MINIMUM_AGE} or older` }
  const tier = creditTier(lead.creditInformation)
  if (tier === undefined) {
    return {
      status: 'rejected',
      reason: `providedCreditRating is not a rating we price; we price ${Object.keys(RATING_TIERS).join(', ')}`,
    }
  }
  const offers: OfferDecision[] = []
  const refusals: string[] = []
  for (const [productType, rule] of Object.entries(PRODUCT_RULES) as Array<[ProductType, ProductRule]>) {
    const refusal = productRefusal(rule, lead, tier)
    const bid = rule.bids[tier]
    if (refusal === undefined && bid !== undefined) {
      const terms = loanTerms(rule, tier, lead.loanInformation.loanAmount, lead.loanInformation.purpose)
      offers.push({ product_type: productType, bid, ...(terms ? { loan_terms: terms } : {}) })
    } else refusals.push(`${productType}: ${refusal ?? 'no bid for this tier'}`)
  }
  if (offers.length === 0)
    return { status: 'rejected', reason: `no product fits this lead (${refusals.join('; ')})` }
  return { status: 'approved', offers }
}

/**
 * The figures we quote for `rule` to a lead of `tier`: pre-qualified (a decision on what the lead told us, no
 * hard inquiry), secured where the purpose is, the tier's APR and fee ranges, the term we lend over, an amount
 * range around the asked amount (the whole range we lend when it asked none), and a representative example:
 * the asked amount (the middle of the range when none) at the tier's highest APR over the longest term, so
 * no lead pays more a month for that amount and term; `monthly_payment_usd` is the example's payment.
 * Undefined when the product quotes no APR (debt relief).
 */
export function loanTerms(
  rule: ProductRule,
  tier: CreditTier,
  loanAmount: number | undefined,
  purpose?: string,
): PartnerLoanTerms | undefined {
  const apr = rule.quotes?.aprPercent[tier]
  if (rule.quotes === undefined || apr === undefined) return undefined
  const fee = rule.quotes.originationFeePercent[tier]
  const spread = rule.quotes.amountSpread
  const securedBy = purpose === undefined ? undefined : rule.quotes.securedFor[purpose]
  const amount =
    loanAmount === undefined
      ? { ...rule.loanAmount }
      : {
          min: Math.max(rule.loanAmount.min, hundreds(loanAmount * (1 - spread))),
          max: Math.min(rule.loanAmount.max, hundreds(loanAmount * (1 + spread))),
        }
  const example = representativeExample(
    loanAmount ?? hundreds((amount.min + amount.max) / 2),
    apr.max,
    rule.termMonths.max,
  )
  return {
    offer_kind: 'pre_qualified',
    ...(securedBy === undefined ? {} : { secured: { by: securedBy } }),
    apr_percent: { ...apr },
    amount_usd: amount,
    term_months: { ...rule.termMonths },
    monthly_payment_usd: example.monthly_payment_usd,
    ...(fee === undefined ? {} : { origination_fee_percent: { ...fee } }),
    representative_example: example,
  }
}

const hundreds = (amount: number) => Math.round(amount / 100) * 100

function representativeExample(amount: number, apr: number, months: number) {
  return {
    amount_usd: amount,
    apr_percent: apr,
    term_months: months,
    monthly_payment_usd: monthlyPayment(amount, apr, months),
  }
}

const usd = (amount: number) => `$${Math.round(amount).toLocaleString('en-US')}`

/**
 * The offer's `offer_details`: amount and term first (the lead's own amount when it sent one, else the
 * range we lend), then the product's highlights, one sentence each, so the card's headline says how much and
 * for how long.
 */
export function offerDetails(productType: ProductType, loanAmount: number | undefined): string {
  const rule = PRODUCT_RULES[productType]
  const amount =
    loanAmount === undefined ? `${usd(rule.loanAmount.min)} to ${usd(rule.loanAmount.max)}` : usd(loanAmount)
  const term = `${rule.termMonths.min} to ${rule.termMonths.max} months`
  const headline =
    productType === 'debt_relief'
      ? `Resolve ${amount} of unsecured debt over ${term}.`
      : `Borrow ${amount} over ${term}.`
  return [headline, ...rule.highlights].join(' ')
}
