/**
 * @module msw scenarios of the second look: lenders that answer as the marketplace's do (bids hidden until
 * the lead settles, then the winner), and the front door's answers to a lead the loan application sends: a
 * field refused, a slow create, an applicant who already applied. Part of handlers.ts's `scenarios`.
 */
import type { Offer } from '../../contract/rate-table.ts'
import { fieldsRefused } from './bff-answers.ts'
import { createFakeBff, type FakeBffScript, type Scenario } from './fake-bff.ts'
import type { PartnerScript } from './fake-searches.ts'
import { CARRIER_ORIGIN, fakeUuid, makeOffer, makePartner } from './fixtures.ts'

/**
 * A marketplace partner: its bid is not shown when it answers; the auction's winners appear only once the
 * lead settles (src/marketplace/rate-table), so a lender's own script carries no offers.
 */
const lender = (name: string, answersAfterMs: number): PartnerScript => ({
  partner: makePartner({
    name,
    supportsPersonalizedOffers: false,
    // A partner-level disclaimer the widget must not show for a lender offering nothing.
    disclaimer: `${name}: simulated partner for the sandbox; no real offer.`,
  }),
  answersAfterMs,
  offers: [],
  productTypes: ['installment_loan'],
})

/** The rate table's loan terms (src/contract/loan-terms.ts), as the browser's contract reads them. */
type LoanTerms = NonNullable<Offer['loanTerms']>

/**
 * A winning bid in the widget's offer shape, as the marketplace builds it: one click route, no pixels, and
 * the lender's loan terms as figures when it sent them (src/contract/loan-terms.ts).
 */
const loanOffer = (
  lenderName: string,
  rank: number,
  headline: string,
  disclaimer?: string,
  loanTerms?: LoanTerms,
) => {
  const uuid = fakeUuid(3)
  const click = `${CARRIER_ORIGIN}/api/clicks/${uuid}`
  return makeOffer({
    uuid,
    rank,
    url: click,
    unmonetizedUrl: click,
    headline,
    descriptionPoints: [],
    productType: 'installment_loan',
    productDisplayName: 'Personal loan',
    financialInstitutionDisplayName: lenderName,
    impressionTrackingPixelUrls: [],
    ...(disclaimer && { disclaimer }),
    ...(loanTerms && { loanTerms }),
  })
}

/**
 * The installment loan's terms, consistent with its headline: $12,000 over 36 months at 11.9 % is about
 * $398 a month; APR and fee ranges as personal loans quote them (a debt relief offer would carry none).
 */
const STEADY_TERMS: LoanTerms = {
  aprPercent: { min: 11.9, max: 35.99 },
  amountUsd: { min: 1_000, max: 12_000 },
  termMonths: { min: 24, max: 60 },
  monthlyPaymentUsd: 398,
  originationFeePercent: { min: 0, max: 8 },
}

const LENDERS =
  'Six lenders asked, 12 s at most: three decline at once (one of them with a disclaimer, never shown), two answer at 0.2 s and 2.6 s, one past the window. The auction settles at 12 s: the winner appears with its lender name, logo, product, offer details and its own disclaimer, and no impression pixels.'

/** The six lenders of the second look and when each answers; `extra` scripts the front door. */
const lenders = (extra: Omit<FakeBffScript, 'partners' | 'secondLook'> = {}) =>
  createFakeBff({
    ...extra,
    secondLook: { windowMs: 12_000 },
    partners: [
      lender('Sim Prime Lending', 120),
      lender('Sim Flaky Bank', 120),
      lender('Sim Garbled Credit', 120),
      lender('Sim Quick Loans', 240),
      lender('Sim Steady Finance', 2_600),
      // Past the window: recorded as timed out when the lead settles, which is when winners show.
      {
        ...lender('Sim Tardy Lender', 12_000),
        offers: [
          loanOffer(
            'Sim Steady Finance',
            1,
            'Personal loan up to $12,000 at 11.9% APR, 36 months',
            'Sim Steady Finance, NMLS #000000 (simulated). Rates from 11.9% APR with autopay; your rate depends on your credit.',
            STEADY_TERMS,
          ),
        ],
      },
    ],
  })

/** The ZIP code the field-refusal scenario's BFF refuses: one no US address has. */
export const REFUSED_ZIP = '00000'

/** How long the slow create takes (fake ms): the widget's "starting" state lasts that long. */
const SLOW_CREATE_MS = 8_000

export const secondLookScenarios = {
  secondLookLoans: {
    title: 'Second look: lenders',
    description: `It serves the sandbox's consent texts and takes a lead with exactly those. ${LENDERS}`,
    create: () => lenders(),
  },
  loanFieldRefused: {
    title: 'Second look: a field refused',
    description: `A lead with ZIP code ${REFUSED_ZIP} is refused with 400 validation_failed naming personalInformation.zipcode (no US address has it: a check only the server can make, past the application's own), so the application comes back with that field marked; any other ZIP is taken. ${LENDERS}`,
    create: () =>
      lenders({
        createFailure: (body) =>
          (body as { personalInformation?: { zipcode?: string } }).personalInformation?.zipcode ===
          REFUSED_ZIP
            ? fieldsRefused([
                {
                  field: 'personalInformation.zipcode',
                  reason: `personalInformation.zipcode ${REFUSED_ZIP} is no ZIP code in use: send the applicant's own`,
                },
              ])
            : undefined,
      }),
  },
  loanSlowCreate: {
    title: 'Second look: a slow create',
    description: `The lead takes ${SLOW_CREATE_MS / 1000} s to be taken (201), so the widget stays in its "starting" state meanwhile. ${LENDERS}`,
    create: () => lenders({ createDelayMs: SLOW_CREATE_MS }),
  },
  loanDuplicateApplicant: {
    title: 'Second look: a duplicate applicant',
    description:
      'Every lead comes from an applicant who applied within the duplicate window and whose offers have expired: 409 duplicate_applicant, no lender asked, and the application says they applied recently.',
    create: () =>
      lenders({ repeatApplicant: { firstAppliedAt: '2026-11-20T09:30:00.000Z', offersExpired: true } }),
  },
} satisfies Record<string, Scenario>
