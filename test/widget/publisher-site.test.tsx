/**
 * @module Issues 11, 22 and 31 in jsdom: what keeps the widget still, clear and in rank order on a
 * publisher's page. Skeleton places while partners are pending, the initial limit with "Show N more", rank
 * order with no tap, nothing moving under a press or within 600 ms of one, disclaimers that follow their
 * offers, focus after each action, "More details", "Change details", the sponsored slot, and one
 * Idempotency-Key per submitted lead.
 */
import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { act } from 'react'
import { describe, expect, test, vi } from 'vitest'
import { createFakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { makeOffer, makePartner, SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { arrangeOffers } from '../../src/widget/arrange-offers.ts'
import type { DisplayOffer } from '../../src/widget/display-rules.ts'
import { DEFAULT_LABELS, OfferWidget, type OfferWidgetProps } from '../../src/widget/index.ts'
import { collapsedPointCount, isClamped } from '../../src/widget/OfferCard.tsx'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { renderWidget } from './support/render-widget.tsx'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
const cards = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('li.ow-card')]
const headlines = (root: HTMLElement) => cards(root).map((c) => c.querySelector('.ow-headline')?.textContent)
const skeletons = (root: HTMLElement) => root.querySelectorAll('.ow-skeleton').length

const mount = (bff: ReturnType<typeof createFakeBff>, props: Partial<OfferWidgetProps> = {}) =>
  renderWidget(bff.handlers, props)

/** One offer on screen (rank 2), then a partner answering at 2 s with a better-ranked one. */
const betterOfferArrivesLate = () =>
  createFakeBff({
    partners: [
      {
        partner: makePartner({ name: 'Late' }),
        answersAfterMs: 2000,
        offers: [makeOffer({ rank: 1, headline: 'Better' })],
      },
    ],
    initialOffers: [makeOffer({ rank: 2, headline: 'First' })],
  })

const offer = (uuid: string, rank: number) => ({ uuid, rank }) as DisplayOffer

describe('arrangeOffers', () => {
  const all = [offer('a', 1), offer('b', 2), offer('c', 3), offer('d', 4)]
  const ids = (offers: DisplayOffer[]) => offers.map((o) => o.uuid)
  test('not held: always rank order, whatever was on screen', () => {
    expect(ids(arrangeOffers(all, [], false).shown)).toEqual(['a', 'b', 'c', 'd'])
    expect(ids(arrangeOffers(all, ['d', 'c'], false).shown)).toEqual(['a', 'b', 'c', 'd'])
  })
  test.each([
    // [on screen, shown, waiting]
    [['b', 'c'], ['b', 'c', 'd'], 1], // "a" would move both: it waits; "d" ranks after them: it takes the next place
    [['c'], ['c', 'd'], 2],
    [['d'], ['d'], 3],
    [['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd'], 0],
    [['x', 'b'], ['b', 'c', 'd'], 1], // "x" left the table (no longer active): it goes
    [[], ['a', 'b', 'c', 'd'], 0], // nothing on screen yet: nothing to hold
  ] as const)('held with %j on screen: %j, %i waiting', (onScreen, shown, waiting) => {
    const arranged = arrangeOffers(all, onScreen, true)
    expect(ids(arranged.shown)).toEqual(shown)
    expect(arranged.waiting).toBe(waiting)
  })
})

describe('on a publisher page', () => {
  test('skeleton places while partners are pending, replaced by cards; none left once the search completes', async () => {
    const bff = createFakeBff({
      partners: [
        { partner: makePartner({ name: 'A' }), answersAfterMs: 1500, offers: [makeOffer({ rank: 1 })] },
        { partner: makePartner({ name: 'B' }), answersAfterMs: 3000, offers: [] },
      ],
    })
    const view = mount(bff)
    // Before the first rate table: the places of the first three offers.
    expect(skeletons(view.container)).toBe(3)
    await advance()
    expect(skeletons(view.container)).toBe(2)
    await advance(2000)
    expect(cards(view.container)).toHaveLength(1)
    expect(skeletons(view.container)).toBe(1)
    await advance(3000)
    expect(view.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
    expect(skeletons(view.container)).toBe(0)
    // No empty place below the last card.
    expect(view.container.querySelectorAll('.ow-offers > li').length).toBe(1)
  })

  test('a better-ranked arrival takes its place with no tap: the three best on screen, by rank, the fourth behind "Show 1 more"', async () => {
    const bff = createFakeBff({
      partners: [
        {
          partner: makePartner({ name: 'Late' }),
          answersAfterMs: 2000,
          offers: [makeOffer({ rank: 1, headline: 'Best' })],
        },
      ],
      initialOffers: [2, 3, 4].map((rank) => makeOffer({ rank, headline: `Rank ${rank}` })),
    })
    const view = mount(bff)
    await advance()
    expect(headlines(view.container)).toEqual(['Rank 2', 'Rank 3', 'Rank 4'])
    await advance(3000)
    expect(view.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
    expect(headlines(view.container)).toEqual(['Best', 'Rank 2', 'Rank 3'])
    expect(screen.getByRole('button', { name: 'Show 1 more' })).toBeTruthy()
    // The live region names the best offer and counts the cards on screen.
    expect(screen.getByRole('status').textContent).toBe(
      `Search complete: 4 offers. Showing 3 offers, starting with ${cards(view.container)[0]?.querySelector('.ow-carrier')?.textContent}.`,
    )
  })

  test('the first three offers show; "Show N more" reveals the rest (and only then fires their pixels)', async () => {
    const fire = vi.fn()
    const offers = [1, 2, 3, 4, 5].map((rank) => makeOffer({ rank }))
    const bff = createFakeBff({ partners: [], initialOffers: offers })
    const view = mount(bff, { pixelTracker: createPixelTracker(fire) })
    await advance()
    expect(cards(view.container)).toHaveLength(3)
    const pixelsOfThree = fire.mock.calls.length
    await user().click(screen.getByRole('button', { name: 'Show 2 more' }))
    expect(cards(view.container)).toHaveLength(5)
    expect(fire.mock.calls.length).toBeGreaterThan(pixelsOfThree)
    // Focus on the first card revealed, so the next Tab reaches its "View rate".
    expect(document.activeElement).toBe(cards(view.container)[3])
  })

  test('a press inside holds every card on screen until 600 ms after it ends; then the arrival takes its rank', async () => {
    const bff = betterOfferArrivesLate()
    const view = mount(bff)
    await advance()
    const first = cards(view.container)[0] as HTMLElement
    await advance(1500)
    // The visitor's finger comes down on the card just before the better offer arrives.
    fireEvent.pointerDown(first, { pointerType: 'touch' })
    await advance(1000)
    expect(cards(view.container)).toEqual([first])
    fireEvent.pointerUp(window, { pointerType: 'touch' })
    await advance(599)
    expect(cards(view.container)).toEqual([first])
    await advance(1)
    expect(headlines(view.container)).toEqual(['Better', 'First'])
  })

  test('a key press, or a mouse moving inside, holds for 600 ms after the last one', async () => {
    const bff = betterOfferArrivesLate()
    const view = mount(bff)
    await advance()
    const root = view.container.querySelector('.ow-root') as HTMLElement
    await advance(1500)
    for (let i = 0; i < 4; i++) {
      fireEvent.pointerMove(root, { pointerType: 'mouse' })
      await advance(400)
    }
    fireEvent.keyDown(root, { key: 'Tab' })
    await advance(500)
    expect(headlines(view.container)).toEqual(['First'])
    await advance(100)
    expect(headlines(view.container)).toEqual(['Better', 'First'])
  })

  test('a pointer resting inside, or focus on a card, holds nothing: the search ends in rank order', async () => {
    const bff = betterOfferArrivesLate()
    const view = mount(bff)
    await advance()
    const root = view.container.querySelector('.ow-root') as HTMLElement
    fireEvent.pointerEnter(root, { pointerType: 'mouse' })
    act(() => screen.getByRole('link', { name: /View rate/ }).focus())
    await advance(3000)
    expect(view.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
    expect(headlines(view.container)).toEqual(['Better', 'First'])
  })

  test('disclaimers: only of a partner with an offer on screen; none when nothing is', async () => {
    const bff = createFakeBff({
      partners: [
        {
          partner: makePartner({ name: 'Shown', disclaimer: 'Shown licence' }),
          answersAfterMs: 1000,
          offers: [makeOffer({ rank: 1 })],
        },
        {
          partner: makePartner({ name: 'Hidden', disclaimer: 'Hidden licence' }),
          answersAfterMs: 2000,
          offers: [makeOffer({ rank: 9 })],
        },
        // Answers alone, with nothing: no offer of its is ever on screen.
        {
          partner: makePartner({ name: 'Empty', disclaimer: 'Empty licence' }),
          answersAfterMs: 3000,
          offers: [],
        },
      ],
      initialOffers: [2, 3].map((rank) => makeOffer({ rank })),
    })
    const view = mount(bff)
    await advance(5000)
    expect(view.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
    const texts = () => [...view.container.querySelectorAll('.ow-disclaimer')].map((p) => p.textContent)
    expect(texts()).toEqual(['Shown, for Acme Mutual: Shown licence'])
    await user().click(screen.getByRole('button', { name: 'Show 1 more' }))
    expect(texts()).toEqual([
      'Shown, for Acme Mutual: Shown licence',
      'Hidden, for Acme Mutual: Hidden licence',
    ])
    view.unmount()
    const none = createFakeBff({
      partners: [
        {
          partner: makePartner({ name: 'Empty', disclaimer: 'Empty licence' }),
          answersAfterMs: 1000,
          offers: [],
        },
      ],
    })
    const empty = mount(none)
    await advance(3000)
    expect(empty.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
    expect(empty.container.querySelector('.ow-disclaimers')).toBeNull()
  })

  test('"More details" only where copy waits behind it, with aria-expanded; it reveals all; "View rate" comes first', async () => {
    expect(isClamped({ descriptionPoints: ['a', 'b', 'c'] })).toBe(false)
    expect(isClamped({ descriptionPoints: ['a', 'b', 'c', 'd'] })).toBe(true)
    // Long bullets: fewer shown collapsed, whole ones only, never fewer than one.
    expect(collapsedPointCount(['x'.repeat(150), 'y'.repeat(150), 'z'])).toBe(1)
    expect(collapsedPointCount(['x'.repeat(500)])).toBe(1)
    expect(collapsedPointCount([])).toBe(0)
    const bff = createFakeBff({
      partners: [],
      initialOffers: [makeOffer({ rank: 1, descriptionPoints: ['1', '2', '3', '4', '5'] })],
    })
    const view = mount(bff)
    await advance()
    const toggle = screen.getByRole('button', { name: 'More details' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(view.container.querySelectorAll('.ow-points li')).toHaveLength(3)
    const focusable = [...view.container.querySelectorAll('li.ow-card a, li.ow-card button')]
    expect(focusable.map((e) => e.className)).toEqual(['ow-cta', 'ow-link ow-toggle'])
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(view.container.querySelector('li.ow-card[data-ow-open]')).not.toBeNull()
    expect(view.container.querySelectorAll('.ow-points li')).toHaveLength(5)
  })

  test("no offers: the message, and the form under it with the visitor's details, which searches again", async () => {
    server.use(...scenarios.noOffers.create().handlers)
    render(<OfferWidget endpoint={ENDPOINT} search={{ zipCode: '94107', numberOfVehicles: 2 }} />)
    await advance(3000)
    expect(screen.getByText(DEFAULT_LABELS.noOffers, { selector: '.ow-empty p' })).toBeTruthy()
    // The status line does not count "0 offers": the message below says what happened.
    expect(document.querySelector('.ow-progress-text')?.textContent).toBe(DEFAULT_LABELS.completeNone)
    const zip = screen.getByLabelText('ZIP code') as HTMLInputElement
    expect(zip.value).toBe('94107')
    expect((screen.getByLabelText('Number of vehicles', { exact: false }) as HTMLSelectElement).value).toBe(
      '2',
    )
    // Focus stays where the visitor is: the form does not take it on its own.
    expect(document.activeElement).not.toBe(zip)
  })

  test('an error with nothing on screen: "Try again", and the form under it', async () => {
    server.use(...scenarios.noOffers.create().handlers)
    // Used last, so matched first: the BFF answers the search 503.
    server.use(
      http.post(`${ENDPOINT}/api/offer-searches`, () =>
        HttpResponse.json({ code: 'upstream_unavailable', message: 'down' }, { status: 503 }),
      ),
    )
    render(<OfferWidget endpoint={ENDPOINT} search={{ zipCode: '94107' }} />)
    await advance(1000)
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
    expect((screen.getByLabelText('ZIP code') as HTMLInputElement).value).toBe('94107')
  })

  test('form="never": no form in the empty state, only the message', async () => {
    server.use(...scenarios.noOffers.create().handlers)
    render(<OfferWidget endpoint={ENDPOINT} search={{ zipCode: '94107' }} form="never" />)
    await advance(3000)
    expect(screen.getByText(DEFAULT_LABELS.noOffers, { selector: '.ow-empty p' })).toBeTruthy()
    expect(screen.queryByLabelText('ZIP code')).toBeNull()
  })

  test('the sponsored tag and the advertiser disclosure link are configurable', async () => {
    const bff = createFakeBff({ partners: [], initialOffers: [makeOffer({ rank: 1 })] })
    const view = mount(bff, { disclosureUrl: 'https://publisher.example/disclosure' })
    await advance()
    expect(view.container.querySelector('.ow-sponsored')?.textContent).toContain('Sponsored')
    expect(screen.getByRole('link', { name: 'Advertiser disclosure' }).getAttribute('href')).toBe(
      'https://publisher.example/disclosure',
    )
    view.unmount()
    const hidden = mount(createFakeBff({ partners: [], initialOffers: [] }), { labels: { sponsored: '' } })
    await advance()
    expect(hidden.container.querySelector('.ow-sponsored')).toBeNull()
  })

  test('without a disclosure page, "Advertiser disclosure" opens the widget\'s own sentence', async () => {
    const bff = createFakeBff({ partners: [], initialOffers: [makeOffer({ rank: 1 })] })
    const view = mount(bff)
    await advance()
    expect(screen.queryByRole('link', { name: 'Advertiser disclosure' })).toBeNull()
    const toggle = screen.getByRole('button', { name: 'Advertiser disclosure' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(view.container.querySelector('.ow-disclosure')).toBeNull()
    await user().click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(view.container.querySelector('.ow-disclosure')?.textContent).toBe(DEFAULT_LABELS.disclosureText)
  })

  test('second look: one Idempotency-Key per submitted lead, the same again for a remount with that lead', async () => {
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    const props = { endpoint: ENDPOINT, source: 'second-look' as const }
    const first = render(<OfferWidget {...props} lead={SAMPLE_LEAD} />)
    // Skeleton places from the first moment, second look included.
    expect(skeletons(first.container)).toBe(3)
    await advance()
    first.unmount()
    const again = render(<OfferWidget {...props} lead={SAMPLE_LEAD} />)
    await advance()
    again.unmount()
    render(
      <OfferWidget
        {...props}
        lead={{ ...SAMPLE_LEAD, loanInformation: { purpose: 'auto', loanAmount: 9000 } }}
      />,
    )
    await advance()
    const keys = bff.log.creates.map((c) => c.headers.get('idempotency-key'))
    expect(keys).toHaveLength(3)
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/)
    expect(keys[1]).toBe(keys[0])
    expect(keys[2]).not.toBe(keys[0])
  })
})
