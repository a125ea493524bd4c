/**
 * @module What a visitor's widget receives for a second-look lead, on real loopback partners and both ledgers
 * (fake time): the progress (`secondLook`) while partners are out and once settled, the lender named on each
 * card with its amount and term (and the loan's figures as `loanTerms`), and disclaimers only on displayed
 * offers, never a rejecting partner's.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../../src/contract/bff.ts'
import { rateTableSchema } from '../../../src/contract/rate-table.ts'
import type { Ledger } from '../../../src/ledger/index.ts'
import type { SimulatedPartnerSpec } from '../../../src/partner-kit/index.ts'
import { LEDGER_DRIVERS } from '../../ledger/support/ledger-drivers.ts'
import { createFakeClock } from '../../support/fake-clock.ts'
import { watch } from '../../support/promises.ts'
import { type Harness, makeLead, startHarness } from '../support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const REJECTING_DISCLAIMER = 'Prime Rejecting Lending, NMLS #1111: licensed in every state.'
const SLOW_DISCLAIMER = 'Steady Slow Finance, NMLS #3333.'
const PARTNERS: SimulatedPartnerSpec[] = [
  {
    id: 'f-reject',
    name: 'Prime Rejecting Lending',
    tier: 'first',
    behavior: 'reject',
    latencyMs: 0,
    display: { disclaimer: REJECTING_DISCLAIMER },
  },
  {
    id: 's-fast',
    name: 'Quick Fast Loans',
    tier: 'second',
    behavior: 'approve',
    latencyMs: 0,
    display: { disclaimer: 'Quick Fast Loans, NMLS #2222.' },
  },
  {
    id: 's-slow',
    name: 'Steady Slow Finance',
    tier: 'second',
    behavior: 'approve',
    latencyMs: 3_000,
    bidMultiplier: 1.15,
    display: { disclaimer: SLOW_DISCLAIMER },
  },
]

describe.each(LEDGER_DRIVERS)('the second-look result a visitor gets, on $name', (driver) => {
  let ledger: Ledger
  let h: Harness
  const clock = createFakeClock()
  beforeAll(async () => {
    ledger = await driver.open()
    h = await startHarness({ ledger, partners: PARTNERS, config: { deadlineMs: 5_000 }, clock })
  })
  afterAll(async () => {
    await h.close()
    await ledger.close()
  })

  it("says how many lenders are asked and until when, names the lender with amount and term, and shows only displayed partners' disclaimers", async () => {
    const start = clock.now()
    const res = await h.submit(makeLead())
    expect(res.status).toBe(201)
    const created = createdSearchSchema.parse(await res.json())
    const uuid = created.rateTable.uuid
    const settled = watch(h.marketplace.settled(uuid))
    // First look running: its one partner, and the two second-look partners it can still lead to; the
    // longest wait is first look's window then second look's.
    expect(created.rateTable.secondLook).toEqual({
      partnersAsked: 3,
      partnersAnswered: 0,
      answerBy: new Date(start + 10_000).toISOString(),
    })
    expect(created.rateTable.pendingResponses.map((p) => p.partner.disclaimer)).toEqual([''])

    // The rejection, then the fast second-look partner; the slow one is out for 3 s of fake time.
    await h.whenReplies(2)
    await clock.tick(1_000)
    const mid = rateTableSchema.parse(await (await h.poll(uuid, created.accessToken)).json())
    expect(mid.secondLook).toEqual({
      partnersAsked: 3,
      partnersAnswered: 2,
      answerBy: new Date(start + 5_000).toISOString(),
    })
    expect(mid.pendingResponses.map((p) => [p.partner.uuid, p.partner.disclaimer])).toEqual([['s-slow', '']])
    expect(mid.offers).toEqual([])

    await clock.tick(2_000)
    await settled.promise
    await clock.tick(1_000)
    const body = await (await h.poll(uuid, created.accessToken)).text()
    const final = rateTableSchema.parse(JSON.parse(body))
    expect(final.pendingResponses).toEqual([])
    expect(final.secondLook).toEqual({
      partnersAsked: 3,
      partnersAnswered: 3,
      answerBy: new Date(start + 3_000).toISOString(),
    })
    // phase2 (the harness's policy): the slow partner's higher bid wins both product types.
    expect(final.offers.map((o) => [o.productType, o.financialInstitutionDisplayName, o.disclaimer])).toEqual(
      [
        ['installment_loan', 'Steady Slow Finance', SLOW_DISCLAIMER],
        ['debt_relief', 'Steady Slow Finance', SLOW_DISCLAIMER],
      ],
    )
    const [loan, relief] = final.offers
    // The lead asked for 12 000 USD: amount and term lead the card, the highlights are its bullets.
    expect(loan?.headline).toBe('Borrow $12,000 over 24 to 60 months')
    expect(loan?.descriptionPoints).toEqual(['Fixed rate, fixed monthly payment', 'No prepayment penalty'])
    expect(relief?.headline).toBe('Resolve $12,000 of unsecured debt over 24 to 48 months')
    // The simulated partners send the reference partner's figures: the loan's for a fair score and 12 000
    // USD asked; debt relief has no APR, so its card shows its copy alone.
    expect(loan?.loanTerms).toEqual({
      offerKind: 'pre_qualified',
      aprPercent: { min: 17.99, max: 35.99 },
      amountUsd: { min: 9_600, max: 14_400 },
      termMonths: { min: 24, max: 60 },
      monthlyPaymentUsd: 433.52,
      originationFeePercent: { min: 3, max: 8 },
      representativeExample: {
        amountUsd: 12_000,
        aprPercent: 35.99,
        termMonths: 60,
        monthlyPaymentUsd: 433.52,
      },
    })
    expect(relief?.loanTerms).toBeUndefined()
    // A partner that rejected the lead lends its disclaimer to nothing.
    expect(body).not.toContain('NMLS #1111')
    expect(body).not.toContain('NMLS #2222')
  })
})
