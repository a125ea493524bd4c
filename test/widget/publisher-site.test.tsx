/**
 * @module Issues 11 and 22 in jsdom: what keeps the widget still and clear on a publisher's page. Skeleton
 * places while partners are pending, the initial limit with "Show N more", no card on screen ever pushed
 * out of view, nothing inserted above a card while the visitor is inside (a "1 new offer" control
 * re-sorts), focus after each action, "More details", "Change details", the sponsored slot, and one
 * Idempotency-Key per submitted lead.
 */
import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { act } from 'react'
import { describe, expect, test, vi } from 'vitest'
import { createFakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { makeOffer, makePartner, SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { arrangeOffers } from '../../src/widget/arrange-offers.ts'
import type { DisplayOffer } from '../../src/widget/display-rules.ts'
import { OfferWidget, type OfferWidgetProps } from '../../src/widget/index.ts'
import { collapsedPointCount, isClamped } from '../../src/widget/OfferCard.tsx'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { renderWidget } from './support/render-widget.tsx'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
const cards = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('li.ow-card')]
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
  test('before any card is on screen: rank order', () => {
    expect(ids(arrangeOffers(all, [], { places: 3, still: false }).shown)).toEqual(['a', 'b', 'c', 'd'])
  })
  test.each([
    // [on screen, places, still, shown, held]
    [['b', 'c'], 3, false, ['a', 'b', 'c', 'd'], 0], // room for one more: "a" goes above, "d" after
    [['b', 'c'], 3, true, ['b', 'c', 'd'], 1], // the visitor is inside: "a" waits
    [['b', 'c', 'd'], 3, false, ['b', 'c', 'd'], 1], // "a" would push "d" behind "Show N more": it waits
    [['b', 'c', 'd'], 4, false, ['a', 'b', 'c', 'd'], 0], // four places: it fits
    [['c'], 3, false, ['a', 'b', 'c', 'd'], 0],
    [['d'], 2, false, ['a', 'd'], 2], // one place left: the best, "a", takes it; "b" and "c" would push "d" out
  ] as const)('on screen %j, %i places, still %s: %j, %i held', (onScreen, places, still, shown, held) => {
    const arranged = arrangeOffers(all, onScreen, { places, still })
    expect(ids(arranged.shown)).toEqual(shown)
    expect(arranged.held).toBe(held)
    // Whatever the case, every card that was on screen keeps a place on screen.
    for (const uuid of onScreen) expect(ids(arranged.shown).indexOf(uuid)).toBeLessThan(places)
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

  test('a better-ranked arrival never pushes a card on screen behind "Show N more"; "1 new offer" shows all by rank and focuses it', async () => {
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
    const before = cards(view.container)
    expect(before).toHaveLength(3)
    await advance(3000)
    expect(cards(view.container)).toEqual(before)
    expect(screen.queryByRole('button', { name: /Show \d+ more/ })).toBeNull()
    await user().click(screen.getByRole('button', { name: '1 new offer' }))
    const headlines = cards(view.container).map((c) => c.querySelector('.ow-headline')?.textContent)
    expect(headlines).toEqual(['Best', 'Rank 2', 'Rank 3', 'Rank 4'])
    expect(document.activeElement).toBe(cards(view.container)[0])
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

  test('while the pointer is inside, a better-ranked arrival waits behind "1 new offer"; a click re-sorts', async () => {
    const bff = betterOfferArrivesLate()
    const view = mount(bff)
    await advance()
    const root = view.container.querySelector('.ow-root') as HTMLElement
    fireEvent.pointerEnter(root)
    const first = cards(view.container)[0]
    await advance(3000)
    expect(cards(view.container)[0]).toBe(first)
    expect(cards(view.container)).toHaveLength(1)
    const control = screen.getByRole('button', { name: '1 new offer' })
    fireEvent.click(control)
    await advance()
    expect(cards(view.container).map((c) => c.querySelector('.ow-headline')?.textContent)).toEqual([
      'Better',
      'First',
    ])
    expect(screen.queryByRole('button', { name: '1 new offer' })).toBeNull()
  })

  test('focus inside holds arrivals too; leaving lets them in by rank', async () => {
    const bff = betterOfferArrivesLate()
    const view = mount(bff)
    await advance()
    const link = screen.getByRole('link', { name: /View rate/ })
    // Real focus moves (document.activeElement), and the widget's focus handlers update state: inside act().
    act(() => link.focus())
    await advance(3000)
    expect(screen.getByRole('button', { name: '1 new offer' })).toBeTruthy()
    act(() => link.blur())
    await advance()
    expect(cards(view.container).map((c) => c.querySelector('.ow-headline')?.textContent)).toEqual([
      'Better',
      'First',
    ])
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

  test('no offers: a next step and "Change details", which reopens the form prefilled', async () => {
    server.use(...scenarios.noOffers.create().handlers)
    render(<OfferWidget endpoint={ENDPOINT} search={{ zipCode: '94107', numberOfVehicles: 2 }} />)
    await advance(3000)
    const changes = screen.getAllByRole('button', { name: 'Change details' })
    expect(changes.length).toBeGreaterThan(0)
    fireEvent.click(changes[0] as HTMLElement)
    expect((screen.getByLabelText('ZIP code') as HTMLInputElement).value).toBe('94107')
    // Focus on the form's first field, where the visitor changes their details.
    expect(document.activeElement).toBe(screen.getByLabelText('ZIP code'))
    expect(screen.getByLabelText('Number of vehicles', { exact: false })).toBeTruthy()
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
