/**
 * @module Loan terms as figures: our optional extension of the second-look partner reply
 * (docs/partner-interface.md, "Loan terms"; docs/decisions/0108-loan-terms.md). Document 001 gives an offer
 * only marketing text; a visitor compares APR, amount and term, so a partner may send them as numbers, and
 * the widget shows them as labelled figures. The partner sends `loan_terms` (snake_case like the rest of its
 * reply); the rate table carries `loanTerms` (camelCase like the rest of it). Every figure is optional, a
 * range is `{ min, max }` with `min <= max` (a single value is `min === max`), and the units are in the
 * names. Bounds are what a consumer loan can be; a figure outside them is a partner's mistake, not a
 * product. Server-only: the widget reads `loanTermsSchema` in rate-table.ts.
 */
import * as z from 'zod/mini'
import type { LoanTerms } from './rate-table.ts'

export type { LoanTerms }

/** A figure's range, as both wire forms spell it: `min <= max`, one figure when they are equal. */
export interface Range {
  min: number
  max: number
}

/** What each figure may be: the partner-facing names, their rate-table names and their bounds. */
export const LOAN_TERM_FIELDS = {
  apr_percent: { key: 'aprPercent', min: 0, max: 100, whole: false, range: true },
  amount_usd: { key: 'amountUsd', min: 1, max: 10_000_000, whole: false, range: true },
  term_months: { key: 'termMonths', min: 1, max: 600, whole: true, range: true },
  monthly_payment_usd: { key: 'monthlyPaymentUsd', min: 1, max: 1_000_000, whole: false, range: false },
  origination_fee_percent: { key: 'originationFeePercent', min: 0, max: 100, whole: false, range: true },
} as const
export type PartnerLoanTermField = keyof typeof LOAN_TERM_FIELDS

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
    },
    {
      error: `${P} must be an object with any of apr_percent, amount_usd, term_months, monthly_payment_usd, origination_fee_percent`,
    },
  )
  .check(
    z.refine((terms) => Object.keys(terms).length > 0, {
      error: `${P} must carry at least one figure, or be left out`,
    }),
  )
export type PartnerLoanTerms = z.infer<typeof partnerLoanTermsSchema>

/** A partner's validated terms in the rate table's names. */
export function toLoanTerms(terms: PartnerLoanTerms): LoanTerms {
  const out: LoanTerms = {}
  if (terms.apr_percent) out.aprPercent = { ...terms.apr_percent }
  if (terms.amount_usd) out.amountUsd = { ...terms.amount_usd }
  if (terms.term_months) out.termMonths = { ...terms.term_months }
  if (terms.monthly_payment_usd !== undefined) out.monthlyPaymentUsd = terms.monthly_payment_usd
  if (terms.origination_fee_percent) out.originationFeePercent = { ...terms.origination_fee_percent }
  return out
}
