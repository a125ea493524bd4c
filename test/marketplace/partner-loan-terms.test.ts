/**
 * @module Issue 41 end to end, on both ledgers: a partner on a real socket sends `loan_terms` with its offers:
 * good terms reach the ledger and the widget's rate table as `loanTerms`; terms that break the contract are
 * dropped and the offer kept (shown as its copy says), the reason naming the field and the fix; a figure that
 * is the lead's SSN or phone digits drops its offer whole (docs/decisions/0097 and 0108), nothing of it
 * stored or shown. The designation, the secured label and a consistent representative example travel to the
 * widget; a payment without its example is dropped, the rest of its terms kept, the reason saying so.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { Hono } from 'hono'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { rateTableSchema } from '../../src/contract/rate-table.ts'
import type { Ledger } from '../../src/ledger/index.ts'
import { sandboxConsentTexts } from '../../src/marketplace/consent/consent-texts.ts'
import { createMarketplace, type PartnerRegistryEntry } from '../../src/marketplace/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { type LoopbackPartner, startLoopbackPartner } from '../partner-kit/support/loopback-partner.ts'
import { marketplaceApi, SECRET, settledLeadThrough } from './support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const offer = (productType: string, rate: number, loanTerms?: unknown) => ({
  rate,
  click_url: `https://lender.example.com/apply/${productType}`,
  logo_src: 'https://lender.example.com/logo.svg',
  name: 'Terms Lender Inc.',
  display_name: 'Terms Lender',
  offer_details: 'Borrow $12,000 over 24 to 60 months. Fixed rate.',
  product_type: productType,
  ...(loanTerms === undefined ? {} : { loan_terms: loanTerms }),
})

const GOOD_TERMS = {
  apr_percent: { min: 8.99, max: 24.99 },
  amount_usd: { min: 9_600, max: 14_400 },
  term_months: { min: 24, max: 60 },
  monthly_payment_usd: 352.15,
  origination_fee_percent: { min: 1, max: 5 },
  offer_kind: 'pre_qualified',
  secured: { by: 'vehicle' },
  representative_example: {
    amount_usd: 12_000,
    apr_percent: 24.99,
    term_months: 60,
    monthly_payment_usd: 352.15,
  },
}
const PAYMENT_ALONE = { apr_percent: { min: 9, max: 20 }, monthly_payment_usd: 300, offer_kind: 'advertised' }

const OFFERS = [
  offer('personal_loan', 5, GOOD_TERMS),
  // min > max: the terms go, the offer stays.
  offer('auto_loan', 4, { apr_percent: { min: 30, max: 10 } }),
  // The SSN's digits as an amount (9 876 543.29 USD is within the amount's bounds).
  offer('student_loan', 6, { amount_usd: { min: 1_000, max: 9_876_543.29 } }),
  // The phone number's digits as a payment (past the bound too: PII is judged first).
  offer('heloc', 7, { monthly_payment_usd: 2_025_550_147 }),
  offer('business_loan', 3),
  // A payment with no example: the payment goes, the APR and designation stay.
  offer('line_of_credit', 2, PAYMENT_ALONE),
]

function entry(endpoint: string): PartnerRegistryEntry {
  return {
    id: 'terms',
    name: 'terms',
    tier: 'first',
    endpoint,
    timeoutMs: 5_000,
    scoreFactor: 1,
    enabled: true,
    sandbox: true,
    display: {
      name: 'terms',
      logoUrl: 'https://logos.example.com/p.svg',
      productType: 'personal_loan',
      productDisplayName: 'Personal loan',
      copy: '',
      disclaimer: '',
    },
  }
}

async function query<T = Record<string, unknown>>(ledger: Ledger, statement: SQL): Promise<T[]> {
  return ((await ledger.db.execute(statement)) as unknown as { rows: T[] }).rows
}

describe.each(LEDGER_DRIVERS)('loan terms from a partner reply, on $name', (driver) => {
  let ledger: Ledger
  let partner: LoopbackPartner
  let marketplace: ReturnType<typeof createMarketplace>
  let app: Hono
  beforeAll(async () => {
    ledger = await driver.open()
    partner = await startLoopbackPartner(() => ({
      body: { status: 'approved', lead_id: 'terms-1', offers: OFFERS },
    }))
    marketplace = createMarketplace({
      config: {
        winnerPolicy: 'phase2',
        sandboxMode: true,
        deadlineMs: 5_000,
        duplicateWindowMs: 0,
        consentTexts: sandboxConsentTexts(),
      },
      ledger,
      registry: [entry(partner.url)],
      secret: SECRET,
      logger: pino({ level: 'silent' }),
    })
    app = marketplaceApi(marketplace)
  })
  afterAll(async () => {
    await marketplace?.close()
    await partner?.close()
    await ledger?.close()
  })

  it('shows good terms, drops bad terms keeping the offer, and drops an offer whose terms carry PII', async () => {
    const { leadUuid, body } = await settledLeadThrough(marketplace, app)
    const table = rateTableSchema.parse(JSON.parse(body))

    // One winner per product type; the PII offers are gone, the bad-terms offer shows without terms.
    const shown = Object.fromEntries(table.offers.map((o) => [o.productType, o.loanTerms]))
    expect(Object.keys(shown).sort()).toEqual([
      'auto_loan',
      'business_loan',
      'line_of_credit',
      'personal_loan',
    ])
    expect(shown.personal_loan).toEqual({
      aprPercent: { min: 8.99, max: 24.99 },
      amountUsd: { min: 9_600, max: 14_400 },
      termMonths: { min: 24, max: 60 },
      monthlyPaymentUsd: 352.15,
      originationFeePercent: { min: 1, max: 5 },
      offerKind: 'pre_qualified',
      secured: { by: 'vehicle' },
      representativeExample: {
        amountUsd: 12_000,
        aprPercent: 24.99,
        termMonths: 60,
        monthlyPaymentUsd: 352.15,
      },
    })
    expect(shown.line_of_credit).toEqual({ aprPercent: { min: 9, max: 20 }, offerKind: 'advertised' })
    expect(shown.auto_loan).toBeUndefined()
    expect(shown.business_loan).toBeUndefined()
    for (const leaked of ['9876543', '2025550147']) expect(body).not.toContain(leaked)

    const [request] = await query<{ status: string; offers_dropped: number; reason: string }>(
      ledger,
      sql`select status, offers_dropped, reason from marketplace_partner_requests
          where lead_id = ${leadUuid}`,
    )
    expect(request?.status).toBe('approved')
    expect(Number(request?.offers_dropped)).toBe(2)
    // The stored reason is capped at 500 characters; what fits says the payment went and why.
    expect(request?.reason).toMatch(
      new RegExp(
        `^${literal(
          "2 of 6 offers dropped: offers[2].loan_terms.amount_usd.max carries the lead's SSN; " +
            "offers[3].loan_terms.monthly_payment_usd carries the lead's phone number (docs/partner-interface.md). " +
            'loan_terms dropped from 1 of 6 offers, each offer kept: ' +
            'offers[1].loan_terms.apr_percent.min must not be greater than offers[1].loan_terms.apr_percent.max ' +
            '(docs/partner-interface.md, "Loan terms"). ' +
            'loan_terms parts dropped, the rest kept: ' +
            'offers[5].loan_terms.monthly_payment_usd dropped',
        )}`,
      ),
    )

    const stored = await query<{ product_type: string; loan_terms: unknown }>(
      ledger,
      sql`select product_type, loan_terms from marketplace_offers
          where lead_id = ${leadUuid} order by position`,
    )
    expect(stored).toEqual([
      { product_type: 'personal_loan', loan_terms: GOOD_TERMS },
      { product_type: 'auto_loan', loan_terms: null },
      { product_type: 'business_loan', loan_terms: null },
      {
        product_type: 'line_of_credit',
        loan_terms: { apr_percent: { min: 9, max: 20 }, offer_kind: 'advertised' },
      },
    ])
  })
})
