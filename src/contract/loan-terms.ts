/**
 * @module Loan terms as figures: our optional extension of the second-look partner reply
 * (docs/partner-interface.md, "Loan terms"; docs/decisions/0108-loan-terms.md). Document 001 gives an offer
 * only marketing text; a visitor compares APR, amount and term, so a partner may send them as numbers, and
 * the widget shows them as labelled figures. The partner sends `loan_terms` (snake_case like the rest of its
 * reply); the rate table carries `loanTerms` (camelCase like the rest of it). Every figure is optional, a
 * range is `{ min, max }` with `min <= max` (a single value is `min === max`), and the units are in the
 * names. Bounds are what a consumer lender could really offer on a personal loan; a figure outside them is a
 * partner's mistake (a fraction sent for a percent, cents for dollars), not a product. Beside the figures, what
 * kind of offer it is (`offer_kind`), what secures it (`secured`) and a `representative_example`, judged
 * against the other figures in loan-terms-example.ts. Server-only: the widget reads `loanTermsSchema` in
 * rate-table.ts.
 */
import * as z from 'zod/mini'
import type { LoanTerms } from './rate-table.ts'

/** A figure's range, as both wire forms spell it: `min <= max`, one figure when they are equal. */
export interface Range {
  min: number
  max: number
}

/** What each figure may be: the partner-facing names, their rate-table names and their bounds. */
export const LOAN_TERM_FIELDS = {
  // 1 %: below it a partner sent a fraction (0.1799 for 17.99 %). 36 %: the Military Lending Act's cap, most
  // states' cap on loans of this size, and the top of every mainstream personal lender's range.
  apr_percent: { key: 'aprPercent', min: 1, max: 36, whole: false, range: true },
  amount_usd: { key: 'amountUsd', min: 100, max: 100_000, whole: false, range: true },
  term_months: { key: 'termMonths', min: 3, max: 144, whole: true, range: true },
  // The payment of the largest amount at the highest APR over the shortest term is 35 353 USD.
  monthly_payment_usd: { key: 'monthlyPaymentUsd', min: 1, max: 40_000, whole: false, range: false },
  origination_fee_percent: { key: 'originationFeePercent', min: 0, max: 12, whole: false, range: true },
} as const
export type PartnerLoanTermField = keyof typeof LOAN_TERM_FIELDS

/**
 * What kind of offer it is, as a lender's compliance team designates it: a soft-pull conditional offer, a
 * firm offer after underwriting, or rates the lender advertises to anyone (no decision on this lead).
 */
const OFFER_KINDS = ['pre_qualified', 'pre_approved', 'advertised'] as const
type OfferKind = (typeof OFFER_KINDS)[number]

/** What secures a secured loan: a word the widget labels in each language, never a partner's free text. */
const SECURED_BY = ['vehicle', 'home', 'savings', 'other'] as const
type SecuredBy = (typeof SECURED_BY)[number]

function figure(field: string, bounds: { min: number; max: number; whole: boolean }) {
  const base = bounds.whole
    ? z.int({ error: `${field} must be a whole number` })
    : z.number({ error: `${field} must be a number` })
  return base.check(
    z.gte(bounds.min, { error: `${field} must be at least ${bounds.min}` }),
    z.lte(bounds.max, { error: `${field} must be at most ${bounds.max}` }),
  )
}

function range(field: string, bounds: { min: number; max: number; whole: boolean }) {
  return z
    .strictObject(
      { min: figure(`${field}.min`, bounds), max: figure(`${field}.max`, bounds) },
      {
        error: `${field} must be an object { "min": number, "max": number } (use the same value twice for one figure)`,
      },
    )
    .check(
      z.refine((r) => r.min <= r.max, {
        error: `${field}.min must not be greater than ${field}.max`,
        path: ['min'],
      }),
    )
}

const F = LOAN_TERM_FIELDS
const P = 'offers[].loan_terms'
const E = `${P}.representative_example`

/** One loan as it would be repaid: every figure required, each within the bound of its own kind. */
const exampleSchema = z.strictObject(
  {
    amount_usd: figure(`${E}.amount_usd`, F.amount_usd),
    apr_percent: figure(`${E}.apr_percent`, F.apr_percent),
    term_months: figure(`${E}.term_months`, F.term_months),
    monthly_payment_usd: figure(`${E}.monthly_payment_usd`, F.monthly_payment_usd),
  },
  {
    error: `${E} must be an object { "amount_usd", "apr_percent", "term_months", "monthly_payment_usd" }, each a number`,
  },
)

const securedSchema = z.strictObject(
  {
    by: z.enum(SECURED_BY, { error: `${P}.secured.by must be one of ${SECURED_BY.join(', ')}` }),
  },
  {
    error: `${P}.secured must be { "by": "${SECURED_BY.join('" | "')}" }; leave it out for an unsecured loan`,
  },
)

/**
 * The partner's `loan_terms`. Strict: an unknown key is a misspelt figure (`apr` for `apr_percent`) that
 * would otherwise be dropped without a word. At least one figure, or the object means nothing.
 */
export const partnerLoanTermsSchema = z
  .strictObject(
    {
      apr_percent: z.optional(range(`${P}.apr_percent`, F.apr_percent)),
      amount_usd: z.optional(range(`${P}.amount_usd`, F.amount_usd)),
      term_months: z.optional(range(`${P}.term_months`, F.term_months)),
      monthly_payment_usd: z.optional(figure(`${P}.monthly_payment_usd`, F.monthly_payment_usd)),
      origination_fee_percent: z.optional(range(`${P}.origination_fee_percent`, F.origination_fee_percent)),
      offer_kind: z.optional(
        z.enum(OFFER_KINDS, { error: `${P}.offer_kind must be one of ${OFFER_KINDS.join(', ')}` }),
      ),
      secured: z.optional(securedSchema),
      representative_example: z.optional(exampleSchema),
    },
    {
      error: `${P} must be an object with any of apr_percent, amount_usd, term_months, monthly_payment_usd, origination_fee_percent, offer_kind, secured, representative_example`,
    },
  )
  .check(
    z.refine((terms) => Object.keys(terms).length > 0, {
      error: `${P} must carry at least one figure or offer_kind, or be left out`,
    }),
  )
export type PartnerLoanTerms = z.infer<typeof partnerLoanTermsSchema>
export type RepresentativeExample = z.infer<typeof exampleSchema>

/**
 * The terms as the rate table carries them: the browser's `LoanTerms` is loose, so these pass through it
 * until the widget reads them.
 */
export interface ServedLoanTerms extends LoanTerms {
  offerKind?: OfferKind
  secured?: { by: SecuredBy }
  representativeExample?: {
    amountUsd: number
    aprPercent: number
    termMonths: number
    monthlyPaymentUsd: number
  }
}

/** A partner's validated terms in the rate table's names. */
export function toLoanTerms(terms: PartnerLoanTerms): ServedLoanTerms {
  const out: ServedLoanTerms = {}
  if (terms.apr_percent) out.aprPercent = { ...terms.apr_percent }
  if (terms.amount_usd) out.amountUsd = { ...terms.amount_usd }
  if (terms.term_months) out.termMonths = { ...terms.term_months }
  if (terms.monthly_payment_usd !== undefined) out.monthlyPaymentUsd = terms.monthly_payment_usd
  if (terms.origination_fee_percent) out.originationFeePercent = { ...terms.origination_fee_percent }
  if (terms.offer_kind) out.offerKind = terms.offer_kind
  if (terms.secured) out.secured = { by: terms.secured.by }
  const example = terms.representative_example
  if (example) {
    out.representativeExample = {
      amountUsd: example.amount_usd,
      aprPercent: example.apr_percent,
      termMonths: example.term_months,
      monthlyPaymentUsd: example.monthly_payment_usd,
    }
  }
  return out
}
