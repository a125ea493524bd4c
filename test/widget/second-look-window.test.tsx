/**
 * @module A second-look search runs two tiers, each with its own 12 s window, so the widget polls it past
 * the offer search's 15 s: a lender answering at 20 s is shown, and polling still ends at its own bound.
 * And what the visitor sees while lenders are asked and once the lead settles.
 */
import { render, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { createFakeBff, type FakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { makeOffer, makePartner, SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { OfferWidget } from '../../src/widget/index.ts'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { POLL_WINDOW_MS, SECOND_LOOK_POLL_WINDOW_MS } from '../../src/widget/poll-policy.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const lender = (answersAfterMs: number | null) =>
  createFakeBff({
    partners: [
      {
        partner: makePartner({ name: 'Second Chance Lending' }),
        answersAfterMs,
        offers: [makeOffer({ rank: 1, financialInstitutionDisplayName: 'Second Chance Lending' })],
      },
    ],
  })

/** A second-look widget submitting the sample lead to `bff`. */
function renderSecondLook(bff: FakeBff) {
  server.use(...bff.handlers)
  return render(
    <OfferWidget
      endpoint={ENDPOINT}
      source="second-look"
      lead={SAMPLE_LEAD}
      pixelTracker={createPixelTracker(() => {})}
    />,
  )
}

/** A second-look search on a fake BFF whose one lender answers at `answersAfterMs`. */
function searchWith(answersAfterMs: number | null) {
  const bff = lender(answersAfterMs)
  renderSecondLook(bff)
  return bff
}

test('a lender answering after 15 s (second look) is still shown', async () => {
  const bff = searchWith(20_000)
  await advance(POLL_WINDOW_MS + 1000)
  expect(screen.queryByText('Second Chance Lending')).toBeNull()
  await advance(6000)
  expect(await screen.findAllByText('Second Chance Lending')).not.toHaveLength(0)
  expect(bff.log.polls.length).toBeGreaterThan(15)
})

test('second-look polling still ends at its own bound', async () => {
  const bff = searchWith(null)
  await advance(SECOND_LOOK_POLL_WINDOW_MS + 5000)
  const polls = bff.log.polls.length
  expect(polls).toBeLessThanOrEqual(SECOND_LOOK_POLL_WINDOW_MS / 1000)
  await advance(10_000)
  expect(bff.log.polls.length).toBe(polls)
})

test('the visitor sees how many lenders are asked and the longest wait, then the winner with its lender, product, details and only its own disclaimer', async () => {
  const view = renderSecondLook(scenarios.secondLookLoans.create())
  await advance(3000)
  const progress = () => view.container.querySelector('.ow-progress-text')?.textContent
  // Six asked (the server's count); five answered by 3 s; at most 9 s to go of a 12 s window.
  expect(progress()).toMatch(/^Asking 6 lenders · 5 answered · up to (9|10) s left$/)
  // One place can fill (every lender is asked for the same product type): one skeleton, not three.
  expect(view.container.querySelectorAll('.ow-skeleton')).toHaveLength(1)
  await advance(10_000)
  expect(view.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
  const card = view.container.querySelector('li.ow-card') as HTMLElement
  expect(card.querySelector('.ow-carrier')?.textContent).toBe('Sim Steady Finance')
  expect(card.querySelector('.ow-product')?.textContent).toBe('Personal loan')
  expect(card.querySelector('.ow-headline')?.textContent).toContain('$12,000 at 11.9% APR')
  expect(card.querySelector('.ow-card-disclaimer')?.textContent).toContain('NMLS')
  // No partner-level disclaimer block: a lender that offered nothing (Sim Prime Lending declined) is never named.
  expect(view.container.querySelector('.ow-disclaimers')).toBeNull()
  expect(view.container.textContent).not.toContain('Sim Prime Lending')
  // The search is over: no empty place is left below the last card.
  expect(view.container.querySelectorAll('.ow-offers > li')).toHaveLength(1)
})
