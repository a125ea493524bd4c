/**
 * @module Issue 11, "one bad offer never hides the others", in the widget: whatever a BFF sends (an older
 * BFF, a second-look table), an offer that breaks the contract is left out alone, the others render, and
 * the developer console says so once per rate table.
 */
import { render, screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { makeOffer, makePartner } from '../../src/playground/scenarios/fixtures.ts'
import { OfferWidget } from '../../src/widget/index.ts'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()
afterEach(() => vi.restoreAllMocks())

const UUID = '7d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6'
const uuid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`

function table(pending: unknown[], more: unknown[] = []) {
  const { recommendationScore: _, ...broken } = makeOffer({ rank: 1, uuid: uuid(1), headline: 'Broken' })
  return {
    uuid: UUID,
    leadUuid: '11111111-2222-4333-8444-555555555555',
    offers: [
      broken,
      makeOffer({ rank: 2, uuid: uuid(2), financialInstitutionDisplayName: 'Long '.repeat(120) }),
      makeOffer({ rank: 3, uuid: uuid(3), headline: 'Good' }),
      ...more,
    ],
    pendingResponses: pending,
    createdAt: '2026-03-01T12:00:00.000Z',
  }
}

describe('one bad offer never hides the others', () => {
  test('the others render (over-long text included), a bad partner keeps polling alive, one console warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const badPartner = {
      partner: {
        ...makePartner({ name: 'Odd', uuid: uuid(9), disclaimer: 'Odd Co. License 9.' }),
        supportsPreSelect: 1,
      },
      offerCatalogProductTypes: [],
    }
    let polls = 0
    const shown: string[] = []
    server.use(
      http.post(`${ENDPOINT}/api/offer-searches/${UUID}/measure`, async ({ request }) => {
        shown.push(...((await request.json()) as { shown: string[] }).shown)
        return new HttpResponse(null, { status: 204 })
      }),
      http.post(`${ENDPOINT}/api/offer-searches`, () =>
        HttpResponse.json({ accessToken: 't', rateTable: table([badPartner]) }, { status: 201 }),
      ),
      http.get(`${ENDPOINT}/api/offer-searches/${UUID}`, () => {
        polls++
        // It answers on the second poll with an offer of its own, which brings its disclaimer on screen.
        return HttpResponse.json(
          polls < 2
            ? table([badPartner])
            : table([], [makeOffer({ rank: 4, uuid: uuid(4), headline: 'Odd offer' })]),
        )
      }),
    )
    const view = render(
      <OfferWidget
        endpoint={ENDPOINT}
        search={{ zipCode: '94107' }}
        pixelTracker={createPixelTracker(() => {})}
      />,
    )
    await advance(3000)
    const cards = [...view.container.querySelectorAll('li.ow-card')]
    expect(cards.map((c) => c.getAttribute('data-offer-uuid'))).toEqual([uuid(2), uuid(3), uuid(4)])
    expect(screen.queryByText('Broken')).toBeNull()
    // The BFF hears of the offers shown, each once, and never of the one left out.
    expect(shown.toSorted()).toEqual([uuid(2), uuid(3), uuid(4)])
    // The partner with a bad field stayed pending (polling went on); its readable disclaimer was kept and
    // shows with its offer.
    expect(polls).toBeGreaterThanOrEqual(2)
    expect(view.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
    expect(screen.getByText('Odd Co. License 9.', { exact: false })).toBeTruthy()
    const warnings = warn.mock.calls.filter((call) => String(call[0]).includes(UUID))
    expect(warnings).toHaveLength(1)
    expect(String(warnings[0]?.[1])).toContain('invalid_recommendationScore')
  })
})
