/**
 * @module Issue 41: a card a visitor can compare. Who quoted each offer ("Quote via …") and the disclaimer
 * tied to its card (reachable, announced, naming the carriers it covers); no clamp on a line with a price
 * or rate figure; a loan's figures as labelled values.
 */
import { readFileSync } from 'node:fs'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test, vi } from 'vitest'
import { createFakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { makeOffer, makePartner, SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { carriesFigure } from '../../src/widget/copy-figures.ts'
import type { DisplayOffer } from '../../src/widget/display-rules.ts'
import { DEFAULT_LABELS, LABELS_ES_US } from '../../src/widget/index.ts'
import { loanFigures } from '../../src/widget/loan-figures.ts'
import { collapsedPoints, isClamped } from '../../src/widget/OfferCard.tsx'
import { isSameCompany, withSources } from '../../src/widget/offer-sources.ts'
import type { SeenPartner } from '../../src/widget/seen-partners.ts'
import { renderWidget } from './support/render-widget.tsx'
import { advance, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
const cardOf = (carrier: string) =>
  screen
    .getAllByRole('listitem')
    .find((li) => li.classList.contains('ow-card') && li.textContent?.includes(carrier))

describe('withSources', () => {
  const offer = (uuid: string, carrierName: string) =>
    ({ uuid, carrierName, quotedVia: [], disclaimerPartners: [] }) as unknown as DisplayOffer
  const partner = (uuid: string, brandName: string, offerUuids: string[]): SeenPartner => ({
    uuid,
    brandName,
    disclaimer: '',
    offerUuids,
  })

  test.each([
    ['an agency quoting a carrier is named', [partner('p', 'Brightway Quotes', ['o'])], ['Brightway Quotes']],
    ['the carrier quoting itself is not', [partner('p', 'BluePeak', ['o'])], []],
    [
      'two partners that left in one poll are both named (the widget cannot tell which)',
      [partner('p', 'Brightway Quotes', ['o']), partner('q', 'Northstar Direct', ['o'])],
      ['Brightway Quotes', 'Northstar Direct'],
    ],
    [
      'nobody when the carrier is among them',
      [partner('p', 'Brightway Quotes', ['o']), partner('q', 'BluePeak Insurance', ['o'])],
      [],
    ],
    ['nobody for an offer of the creating response (no partner credited)', [partner('p', 'X', [])], []],
  ])('%s', (_name, partners, expected) => {
    const [out] = withSources([offer('o', 'BluePeak Insurance')], partners, [])
    expect(out?.quotedVia).toEqual(expected)
  })

  test('disclaimers are tied by partner; an offer with nothing to add stays the same object', () => {
    const plain = offer('x', 'Acme')
    const tied = offer('o', 'Acme')
    const out = withSources(
      [plain, tied],
      [partner('p', 'Acme', ['o'])],
      [{ partnerUuid: 'p', brandName: 'Acme', text: 'Licence', offerUuids: ['o'] }],
    )
    expect(out[0]).toBe(plain)
    expect(out[1]?.disclaimerPartners).toEqual(['p'])
  })

  test('company names compare as a visitor reads them', () => {
    expect(isSameCompany('BluePeak', 'BluePeak Insurance')).toBe(true)
    expect(isSameCompany('Summit State Insurance', 'summit-state insurance')).toBe(true)
    expect(isSameCompany('Blue', 'BluePeak Insurance')).toBe(false)
    expect(isSameCompany('', 'Acme')).toBe(false)
  })
})

describe('on the card', () => {
  /** Acme Mutual quoted by two agencies, one with a licence line, plus a direct carrier offer. */
  const twoAgencies = () =>
    createFakeBff({
      partners: [
        {
          partner: makePartner({
            name: 'Brightway Quotes',
            disclaimer: 'Brightway Quotes LLC, CA license 0K12345.',
          }),
          answersAfterMs: 1000,
          offers: [makeOffer({ rank: 1, headline: 'Save up to 15%' })],
        },
        {
          partner: makePartner({ name: 'Northstar Direct', disclaimer: '' }),
          answersAfterMs: 2000,
          offers: [makeOffer({ rank: 2, headline: 'Save up to 20%' })],
        },
        {
          partner: makePartner({
            name: 'Cardinal Auto',
            disclaimer: 'Cardinal Auto is licensed in all 50 states.',
          }),
          answersAfterMs: 3000,
          offers: [makeOffer({ rank: 3, financialInstitutionDisplayName: 'Cardinal Auto' })],
        },
      ],
      // Answered inside the creating POST: its partner is never named to anyone.
      initialOffers: [makeOffer({ rank: 4, financialInstitutionDisplayName: 'Delta Direct' })],
    })

  test('"Quote via" tells two cards of one carrier apart; a carrier quoting itself and a POST answer name nobody', async () => {
    renderWidget(twoAgencies().handlers, { initialOffers: 4 })
    await advance(5000)
    const first = cardOf('Save up to 15%')
    const second = cardOf('Save up to 20%')
    expect(first && within(first).getByText('Quote via Brightway Quotes')).toBeTruthy()
    expect(second && within(second).getByText('Quote via Northstar Direct')).toBeTruthy()
    expect(cardOf('Cardinal Auto')?.textContent).not.toContain('Quote via')
    expect(cardOf('Delta Direct')?.textContent).not.toContain('Quote via')
    expect(cardOf('Delta Direct')?.querySelector('.ow-via')).toBeNull()
  })

  test('a second-look offer is its lender\'s own: no "Quote via" from timing, even when a lender leaves as it appears', async () => {
    const bff = createFakeBff({
      partners: [
        {
          partner: makePartner({ name: 'Sim Tardy Lender' }),
          answersAfterMs: 2000,
          offers: [makeOffer({ rank: 1, financialInstitutionDisplayName: 'Sim Steady Finance' })],
        },
      ],
    })
    renderWidget(bff.handlers, { source: 'second-look', lead: SAMPLE_LEAD, search: undefined })
    await advance(4000)
    expect(cardOf('Sim Steady Finance')).toBeTruthy()
    expect(screen.queryByText(/Quote via/)).toBeNull()
  })

  test('each disclaimer on screen is announced with its card and its link, says which carriers it covers, and the card reaches it', async () => {
    const view = renderWidget(twoAgencies().handlers, { initialOffers: 4 })
    await advance(5000)
    const entries = [...view.container.querySelectorAll<HTMLElement>('.ow-disclaimer')]
    expect(entries.map((p) => p.textContent)).toEqual([
      'Brightway Quotes, for Acme Mutual: Brightway Quotes LLC, CA license 0K12345.',
      // Its own carrier: nothing to add.
      'Cardinal Auto: Cardinal Auto is licensed in all 50 states.',
    ])
    const cards = [...view.container.querySelectorAll<HTMLElement>('li.ow-card')]
    for (const entry of entries) {
      const tied = cards.filter((card) =>
        card.getAttribute('aria-describedby')?.split(' ').includes(entry.id),
      )
      expect(tied).toHaveLength(1)
      const link = tied[0]?.querySelector('a.ow-cta')
      expect(link?.getAttribute('aria-describedby')?.split(' ')).toContain(entry.id)
    }
    const first = cardOf('Save up to 15%') as HTMLElement
    expect(first.getAttribute('aria-describedby')?.split(' ')).toHaveLength(2) // "Quote via" and the licence
    expect(cardOf('Save up to 20%')?.querySelector('button')?.textContent).not.toBe('Disclaimer')
    await user().click(within(first).getByRole('button', { name: 'Disclaimer' }))
    expect(document.activeElement).toBe(entries[0])
  })

  test('a long disclaimer a card points to opens when the card moves to it', async () => {
    const long = `Licence. ${'Terms apply in every state. '.repeat(20)}`
    const bff = createFakeBff({
      partners: [
        {
          partner: makePartner({ name: 'Oakline', disclaimer: long }),
          answersAfterMs: 1000,
          offers: [makeOffer({ rank: 1 })],
        },
      ],
    })
    const view = renderWidget(bff.handlers)
    await advance(3000)
    const block = view.container.querySelector('.ow-disclaimers') as HTMLElement
    expect(block.hasAttribute('data-ow-open')).toBe(false)
    await user().click(screen.getByRole('button', { name: 'Disclaimer' }))
    expect(block.hasAttribute('data-ow-open')).toBe(true)
    expect(screen.getByRole('button', { name: 'Fewer details' }).getAttribute('aria-expanded')).toBe('true')
  })
})

describe('the offer number is never hidden', () => {
  test.each([
    ['$39/mo', true],
    ['pay as little as $ 89 a month', true],
    ['save up to 15%', true],
    ['Save up to $300 a year', true],
    ['Rates from 6.5 % APR', true],
    ['24/7 claims support', false],
    ['Bundle home and auto', false],
    ['Rated A+ by AM Best', false],
  ])('%s carries a figure: %s', (text, expected) => {
    expect(carriesFigure(text)).toBe(expected)
  })

  test('a long headline with a price is not clamped; a later bullet with one shows collapsed', async () => {
    const headline = `Drivers like you pay as little as $39/mo ${'with every discount we can find for you '.repeat(4)}`
    const points = ['One', 'Two', 'Three', 'Four', 'Five: save up to $300 a year']
    expect(collapsedPoints(points)).toEqual([0, 1, 2, 4])
    expect(isClamped({ headline, descriptionPoints: points })).toBe(true)
    const bff = createFakeBff({
      partners: [],
      initialOffers: [makeOffer({ rank: 1, headline, descriptionPoints: points })],
    })
    const view = renderWidget(bff.handlers)
    await advance(1000)
    const heading = view.container.querySelector('.ow-headline') as HTMLElement
    expect(heading.hasAttribute('data-ow-figure')).toBe(true)
    const shown = [...view.container.querySelectorAll('.ow-points li')].map((li) => li.textContent)
    expect(shown).toEqual(['One', 'Two', 'Three', 'Five: save up to $300 a year'])
    // And the rule that keeps it whole: the clamp never applies to a line marked with a figure.
    const css = readFileSync('src/widget/styles.css', 'utf8')
    expect(css).toMatch(
      /:is\(\.ow-headline, \.ow-points li, \.ow-carrier, \.ow-product\):not\(\[data-ow-figure\]\)/,
    )
  })
})

describe('loan figures', () => {
  const terms = {
    aprPercent: { min: 8.99, max: 35.99 },
    amountUsd: { min: 1000, max: 50_000 },
    termMonths: { min: 24, max: 60 },
    monthlyPaymentUsd: 312.5,
    originationFeePercent: { min: 0, max: 0 },
  }
  test('labelled, in the order a visitor compares loans, a range of equal ends as one figure', () => {
    expect(loanFigures(terms, DEFAULT_LABELS)).toEqual([
      { label: 'APR', value: '8.99–35.99%' },
      { label: 'Loan amount', value: '$1K–$50K' },
      { label: 'Term', value: '24–60 months' },
      { label: 'Est. monthly payment', value: '$312.50' },
      { label: 'Origination fee', value: '0%' },
    ])
  })
  test('in Spanish with US conventions (US loans in dollars)', () => {
    expect(
      loanFigures({ amountUsd: { min: 1000, max: 25_000 }, termMonths: { min: 36, max: 36 } }, LABELS_ES_US),
    ).toEqual([
      { label: 'Monto del préstamo', value: '$1\u00a0K–$25\u00a0K' },
      { label: 'Plazo', value: '36 meses' },
    ])
  })
  test('on a second-look card as a list of terms; an offer without them shows none', async () => {
    const bff = createFakeBff({
      partners: [],
      initialOffers: [
        makeOffer({ rank: 1, financialInstitutionDisplayName: 'Sim Steady', loanTerms: terms }),
        makeOffer({ rank: 2, financialInstitutionDisplayName: 'Sim Relief' }),
      ],
    })
    renderWidget(bff.handlers)
    await advance(1000)
    const steady = cardOf('Sim Steady') as HTMLElement
    const pairs = [...steady.querySelectorAll('.ow-terms div')].map((d) => [
      d.querySelector('dt')?.textContent,
      d.querySelector('dd')?.textContent,
    ])
    expect(pairs[0]).toEqual(['APR', '8.99–35.99%'])
    expect(pairs).toHaveLength(5)
    expect(cardOf('Sim Relief')?.querySelector('.ow-terms')).toBeNull()
  })
})
