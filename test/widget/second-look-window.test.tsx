/**
 * @module A second-look search runs two tiers, each with its own 12 s window, so the widget polls it past
 * the offer search's 15 s: a lender answering at 20 s is shown, and polling still ends at its own bound.
 */
import { render, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { createFakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { makeOffer, makePartner, SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
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

/** A second-look widget submitting the sample lead to a fake BFF whose one lender answers at `answersAfterMs`. */
function searchWith(answersAfterMs: number | null) {
  const bff = lender(answersAfterMs)
  server.use(...bff.handlers)
  render(
    <OfferWidget
      endpoint={ENDPOINT}
      source="second-look"
      lead={SAMPLE_LEAD}
      pixelTracker={createPixelTracker(() => {})}
    />,
  )
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
