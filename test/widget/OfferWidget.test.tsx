/**
 * @module <OfferWidget> end to end against msw scenarios on a fake clock: states, docs/offer-search-api.md's display
 * rules as rendered, pixels, disclaimers, callbacks, the form, theming, labels and CSS delivery.
 */

import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { StrictMode } from 'react'
import { describe, expect, test, vi } from 'vitest'
import { createFakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { makeOffer, makePartner, SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { DEFAULT_LABELS, OfferWidget, type OfferWidgetProps } from '../../src/widget/index.ts'
import { ENTER_KEYFRAMES } from '../../src/widget/layout-flip.ts'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { advance, captureImages, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

const visitor = { zipCode: '94107', dateOfBirth: '1990-04-17' }

function mount(
  scenario: keyof typeof scenarios | ReturnType<typeof createFakeBff>,
  props: Partial<OfferWidgetProps> = {},
  strict = false,
) {
  const bff = typeof scenario === 'string' ? scenarios[scenario].create() : scenario
  server.use(...bff.handlers)
  const fire = vi.fn()
  const tracker = createPixelTracker(fire)
  // Every offer in view unless a test is about the initial limit.
  const element = (
    <OfferWidget endpoint={ENDPOINT} search={visitor} pixelTracker={tracker} initialOffers={99} {...props} />
  )
  const view = render(strict ? <StrictMode>{element}</StrictMode> : element)
  return { bff, fire, view, element }
}

const cards = () => screen.queryAllByRole('listitem').filter((li) => li.classList.contains('ow-card'))
const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })

/** The BFF refusing the create with a 400 naming one field. */
const refusing = (error: { field: string; reason: string }) =>
  http.post('*/api/offer-searches', () =>
    HttpResponse.json({ code: 'validation_failed', message: 'Invalid', errors: [error] }, { status: 400 }),
  )

describe('states', () => {
  test('searching counts what the visitor sees ("n offers so far, still checking m more sources") over a progress bar, then complete', async () => {
    const { view } = mount('offersOverTime')
    await advance()
    expect(view.container.querySelector('[data-ow-status]')?.getAttribute('data-ow-status')).toBe('searching')
    expect(screen.getByText('Checking 5 sources for offers…')).toBeTruthy()
    await advance(4000)
    // The words match the cards on screen, never "0 answered" beside offers already shown.
    expect(screen.getByText(`${cards().length} offers so far, still checking 3 sources`)).toBeTruthy()
    const bar = screen.getByRole('progressbar')
    expect(bar.getAttribute('aria-valuenow')).toBe('2')
    expect(bar.getAttribute('aria-valuemax')).toBe('5')
    expect(cards()).toHaveLength(3)
    await advance(8000)
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(cards()).toHaveLength(5)
    expect(view.container.querySelector('[data-ow-status="complete"]')).not.toBeNull()
    // The progress region stays as the completion line (same two rows), so nothing below it moves up.
    expect(screen.getByText('Search complete: 5 offers.', { selector: '.ow-progress-text' })).toBeTruthy()
    expect(view.container.querySelector('.ow-progress .ow-progress-bar')).not.toBeNull()
  })

  test('a better-ranked offer arriving above cards on screen slides them down instead of jumping', async () => {
    // jsdom has no layout or Web Animations: each tracked element's top is its index x 100 px, and
    // animate() is recorded.
    const animate = vi.fn<Element['animate']>(() => ({ cancel() {} }) as unknown as Animation)
    Element.prototype.animate = animate
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: HTMLElement,
    ) {
      const siblings = [...(this.parentElement?.children ?? [])]
      return { top: siblings.indexOf(this) * 100 } as DOMRect
    })
    try {
      const bff = createFakeBff({
        partners: [
          { partner: makePartner({ name: 'First' }), answersAfterMs: 0, offers: [makeOffer({ rank: 3 })] },
          { partner: makePartner({ name: 'Later' }), answersAfterMs: 1500, offers: [makeOffer({ rank: 1 })] },
        ],
      })
      mount(bff)
      await advance()
      const [rank3] = cards()
      expect(cards()).toHaveLength(1)
      animate.mockClear()
      await advance(2000)
      // DOM order is rank order (what screen readers and the keyboard follow)...
      expect(cards()[1]).toBe(rank3)
      // ...while the card already on screen is drawn at its old place and eased down, and the new one rises
      // in by transform only (readable from its first frame).
      const calls = animate.mock.contexts.map((element, i) => [element, animate.mock.calls[i]?.[0]])
      expect(calls).toContainEqual([rank3, [{ transform: 'translateY(-100px)' }, { transform: 'none' }]])
      expect(calls).toContainEqual([cards()[0], ENTER_KEYFRAMES])
    } finally {
      rect.mockRestore()
      delete (Element.prototype as { animate?: unknown }).animate
    }
  })

  test('complete with no offers is a success with the configurable message', async () => {
    mount('noOffers', { labels: { noOffers: 'Nothing today, sorry.' } })
    await advance(3000)
    expect(screen.getByText('Nothing today, sorry.', { selector: '.ow-empty p' })).toBeTruthy()
    expect(screen.queryByText(/could not load/)).toBeNull()
  })

  test('complete with no offers can render nothing', async () => {
    const { view } = mount('noOffers', { emptyState: 'hide' })
    await advance(3000)
    expect(view.container.innerHTML).toBe('')
  })

  test('a refused browser (403 forbidden) is told so, with no "Try again" to be refused forever', async () => {
    const onError = vi.fn()
    const { bff } = mount('declaredBot', { onError })
    await advance(1000)
    expect(
      screen.getByText('Offers cannot be shown in this browser.', { selector: '.ow-progress-text' }),
    ).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    expect(screen.queryByText(/Please try again/)).toBeNull()
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ status: 403, code: 'forbidden' })
    // Nothing retries on its own either: one create, whatever the time.
    await advance(30_000)
    expect(bff.log.creates).toHaveLength(1)
  })

  test('persistent 5xx: a graceful error after 15 s, and "Try again" starts a new search', async () => {
    const onError = vi.fn()
    const { bff } = mount('persistentServerError', { onError })
    await advance(14_000)
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    await advance(1000)
    expect(
      screen.getByText('We could not load offers right now. Please try again.', {
        selector: '.ow-progress-text',
      }),
    ).toBeTruthy()
    expect(onError).toHaveBeenCalledTimes(1)
    await user().click(screen.getByRole('button', { name: 'Try again' }))
    await advance()
    expect(bff.log.creates).toHaveLength(2)
    expect(screen.getByRole('progressbar')).toBeTruthy()
  })

  test('polling errors past 15 s with offers shown: they stay, with a notice, not "Search complete"', async () => {
    const bff = createFakeBff({
      partners: [
        { partner: makePartner({ name: 'Late' }), answersAfterMs: 5000, offers: [makeOffer({ rank: 2 })] },
      ],
      initialOffers: [makeOffer({ rank: 1, headline: 'Shown at once' })],
      pollFailure: () => HttpResponse.json({ code: 'upstream_unavailable', message: 'x' }, { status: 503 }),
    })
    const { view } = mount(bff)
    await advance(16_000)
    expect(cards()).toHaveLength(1)
    expect(view.container.querySelector('.ow-progress-text')?.textContent).toBe(DEFAULT_LABELS.partial)
    expect(screen.getByRole('status').textContent).toBe(
      `${DEFAULT_LABELS.partial} Showing 1 offer, starting with ${cards()[0]?.querySelector('.ow-carrier')?.textContent}.`,
    )
    expect(screen.queryByText(/Search complete/)).toBeNull()
    expect(view.container.querySelector('.ow-error')).toBeNull()
  })

  test('past 15 s with a partner pending: what arrived stays, polling stops', async () => {
    const onComplete = vi.fn()
    const { bff } = mount('partnerNeverAnswers', { onComplete })
    await advance(16_000)
    expect(cards()).toHaveLength(2)
    expect(screen.queryByRole('progressbar')).toBeNull()
    const polls = bff.log.polls.length
    await advance(10_000)
    expect(bff.log.polls).toHaveLength(polls)
    expect(onComplete).toHaveBeenCalledTimes(1)
  })
})

describe('display rules as rendered (docs/offer-search-api.md)', () => {
  test('"Show only offers whose `status` is `active`."', async () => {
    mount('nonActiveOffers')
    await advance(1000)
    expect(cards().map((c) => within(c).getByRole('heading').textContent)).toEqual(['Active offer'])
  })

  test('"Order by `rank` ascending."', async () => {
    const bff = createFakeBff({
      partners: [],
      initialOffers: [3, 1, 2].map((rank) => makeOffer({ rank, headline: `rank ${rank}` })),
    })
    mount(bff)
    await advance()
    expect(cards().map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'rank 1',
      'rank 2',
      'rank 3',
    ])
  })

  test('"Use `url` when `isMonetized` is true; use `unmonetizedUrl` ..."; links open in a new tab, rel="noopener sponsored"', async () => {
    mount('unmonetizedOffers')
    await advance(1000)
    const [unmonetized, monetized] = cards()
    const link = (card: HTMLElement | undefined) => within(card as HTMLElement).getByRole('link')
    expect(link(unmonetized).getAttribute('href')).toMatch(/\/quote\//)
    expect(link(monetized).getAttribute('href')).toMatch(/\/click\//)
    for (const l of screen.getAllByRole('link')) {
      expect(l.getAttribute('target')).toBe('_blank')
      expect(l.getAttribute('rel')).toBe('noopener sponsored')
      expect(l.textContent).toMatch(/^View rate/)
    }
  })

  test('preview mode always links to unmonetizedUrl and fires no pixel', async () => {
    const { fire } = mount('unmonetizedOffers', { preview: true })
    await advance(1000)
    for (const l of screen.getAllByRole('link')) expect(l.getAttribute('href')).toMatch(/\/quote\//)
    expect(fire).not.toHaveBeenCalled()
  })

  test('an offer with a javascript: link is not shown (no dead card); the others are, every URL http(s)', async () => {
    const { view, fire } = mount('unmonetizedOffers')
    await advance(1000)
    expect(cards().length).toBeGreaterThan(0)
    expect(cards().map((c) => c.textContent)).not.toContainEqual(expect.stringContaining('Hostile offer'))
    for (const card of cards()) expect(within(card).getByRole('link')).toBeTruthy()
    const everyUrl = [
      ...[...view.container.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
      ...[...view.container.querySelectorAll('img')].map((i) => i.getAttribute('src') ?? ''),
      ...fire.mock.calls.map(([url]) => String(url)),
    ]
    expect(everyUrl.length).toBeGreaterThan(0)
    for (const url of everyUrl) expect(url).toMatch(/^https?:\/\//)
  })

  test('offer card: logo, carrier name, headline, checkmark bullets, product name, "View rate"', async () => {
    const offer = makeOffer({
      rank: 1,
      financialInstitutionDisplayName: 'Acme Mutual',
      headline: 'Save 20% today',
      descriptionPoints: ['Point one', 'Point two'],
      productDisplayName: 'Full coverage',
    })
    mount(createFakeBff({ partners: [], initialOffers: [offer] }))
    await advance()
    const [card] = cards()
    const c = within(card as HTMLElement)
    expect(card?.querySelector('.ow-logo img')?.getAttribute('src')).toBe(offer.financialInstitutionImageUrl)
    expect(c.getByText('Acme Mutual')).toBeTruthy()
    expect(c.getByRole('heading', { level: 3 }).textContent).toBe('Save 20% today')
    expect(card?.querySelectorAll('ul.ow-points > li')).toHaveLength(2)
    expect(c.getByText('Full coverage')).toBeTruthy()
    expect(c.getByRole('link').textContent).toContain('View rate')
  })

  test('partner and offer text is rendered as text, never as HTML', async () => {
    const html = '<img src=x onerror="alert(1)"><b>bold</b>'
    const bff = createFakeBff({
      partners: [{ partner: makePartner({ name: 'P', disclaimer: html }), answersAfterMs: null, offers: [] }],
      initialOffers: [
        makeOffer({ rank: 1, headline: html, descriptionPoints: [html], productDisplayName: html }),
      ],
    })
    const { view } = mount(bff)
    await advance()
    expect(view.container.querySelector('b')).toBeNull()
    expect(view.container.querySelectorAll('img[src="x"]')).toHaveLength(0)
    expect(screen.getAllByText(html).length).toBeGreaterThanOrEqual(3)
  })
})

describe('impression pixels (docs/offer-search-api.md: "Fire every URL in `impressionTrackingPixelUrls` when the offer is rendered.")', () => {
  test('each pixel fires once per offer and URL through StrictMode, re-renders and later polls', async () => {
    const { fire, view, element } = mount('offersOverTime', {}, true)
    await advance(2000)
    expect(fire).toHaveBeenCalledTimes(2) // first offer, two pixels
    view.rerender(<StrictMode>{element}</StrictMode>)
    await advance(2000)
    // Poll at 4 s: two more offers arrived, each with two pixels; the first offer's are not fired again.
    expect(fire).toHaveBeenCalledTimes(6)
    await advance(10_000)
    expect(fire).toHaveBeenCalledTimes(10)
    const urls = fire.mock.calls.map(([u]) => u)
    expect(new Set(urls).size).toBe(urls.length)
  })

  test('an offer that first appears in a later poll fires when it renders, not before', async () => {
    const { fire } = mount('offersOverTime')
    await advance(1000)
    expect(fire).not.toHaveBeenCalled()
    await advance(1000)
    const offerUuid = cards()[0]?.getAttribute('data-offer-uuid')
    expect(offerUuid).toBeTruthy()
    // Its two pixels, and nothing else: an empty list must fail here.
    const itsPixel = expect.stringContaining(`/${offerUuid}/`)
    expect(fire.mock.calls.map(([u]) => String(u))).toEqual([itsPixel, itsPixel])
  })

  test('non-active offers fire nothing', async () => {
    const { fire } = mount('nonActiveOffers')
    await advance(1000)
    const active = cards()[0]?.getAttribute('data-offer-uuid')
    expect(fire).toHaveBeenCalledTimes(2)
    for (const [url] of fire.mock.calls) expect(String(url)).toContain(String(active))
  })

  test('by default pixels are image requests, once per page view across widgets', async () => {
    const created = captureImages()
    try {
      const offer = makeOffer({ rank: 1 })
      const bff = createFakeBff({ partners: [], initialOffers: [offer] })
      server.use(...bff.handlers)
      render(
        <>
          <OfferWidget endpoint={ENDPOINT} search={visitor} />
          <OfferWidget endpoint={ENDPOINT} search={visitor} />
        </>,
      )
      await advance()
      expect(created.map((i) => i.src).sort()).toEqual([...(offer.impressionTrackingPixelUrls ?? [])].sort())
      // Plain no-CORS image requests: trackers send no CORS headers.
      expect(created.filter((i) => i.hasAttribute('crossorigin')).map((i) => i.src)).toEqual([])
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('disclaimers (docs/offer-search-api.md: "Show a partner\'s `disclaimer` when it is populated.")', () => {
  test('kept after the partner answered, shown with its offer, empty ones omitted, each shown once', async () => {
    const { view } = mount('disclaimers')
    await advance(5000)
    const shown = [...view.container.querySelectorAll('.ow-disclaimer')].map((p) => p.textContent)
    expect(shown).toHaveLength(3)
    // Each disclaimer names its partner.
    expect(shown[0]).toBe('Acme Mutual: Acme Mutual Insurance Company. CA License #0A12345.')
    expect(new Set(shown).size).toBe(3)
  })
})

describe('callbacks, each once per event', () => {
  test('onSearchCreated, onOffersShown, onComplete under StrictMode; onOfferClick per click', async () => {
    const onSearchCreated = vi.fn()
    const onOffersShown = vi.fn()
    const onComplete = vi.fn()
    const onOfferClick = vi.fn()
    const onError = vi.fn()
    mount('offersOverTime', { onSearchCreated, onOffersShown, onComplete, onOfferClick, onError }, true)
    await advance(12_000)
    expect(onSearchCreated).toHaveBeenCalledTimes(1)
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onError).not.toHaveBeenCalled()
    const reported = onOffersShown.mock.calls.flatMap(([offers]) =>
      offers.map((o: { uuid: string }) => o.uuid),
    )
    expect(reported).toHaveLength(5)
    expect(new Set(reported).size).toBe(5)
    // Offers arrived over four polls: one call per batch.
    expect(onOffersShown).toHaveBeenCalledTimes(4)
    const link = screen.getAllByRole('link')[0] as HTMLElement
    link.addEventListener('click', (e) => e.preventDefault())
    await user().click(link)
    expect(onOfferClick).toHaveBeenCalledTimes(1)
    expect(onOfferClick.mock.calls[0]?.[0]).toMatchObject({ rank: 1 })
  })
})

describe('the form', () => {
  test('auto without a ZIP code asks for the missing fields first; "Currently insured" opens the issuers with logos', async () => {
    const { bff } = mount('happyPath', { search: { isMilitary: true } })
    await advance()
    expect(bff.log.creates).toHaveLength(0)
    expect(screen.getByLabelText('ZIP code')).toBeTruthy()
    expect(screen.getByLabelText(/Date of birth/)).toBeTruthy()
    expect(screen.getByRole('group', { name: /Current insurer/ })).toBeTruthy()
    expect(screen.getByRole('radio', { name: 'Not currently insured' })).toBeTruthy()
    // The insurers have arrived, and are not drawn until the visitor says they are insured.
    expect(screen.queryByRole('radio', { name: 'Acme Mutual' })).toBeNull()
    await user().click(screen.getByRole('radio', { name: 'Currently insured' }))
    expect(screen.getByRole('group', { name: 'Your insurer' })).toBeTruthy()
    expect(screen.getByRole('radio', { name: 'Acme Mutual' })).toBeTruthy()
    expect(
      screen.getByRole('radio', { name: 'Acme Mutual' }).closest('label')?.querySelector('img'),
    ).not.toBeNull()
    await user().click(screen.getByRole('radio', { name: 'Not currently insured' }))
    expect(screen.queryByRole('radio', { name: 'Acme Mutual' })).toBeNull()
    expect(screen.getByLabelText(/Number of vehicles/)).toBeTruthy()
    expect(screen.getByRole('group', { name: /own your home/ })).toBeTruthy()
    // Known already: not asked.
    expect(screen.queryByRole('group', { name: /military/ })).toBeNull()
  })

  test('field errors are shown inline and nothing is sent; a valid submit sends one POST with the answers', async () => {
    const { bff } = mount('happyPath', { search: { isMilitary: true, clientTags: { subId: ['s1'] } } })
    await advance()
    const u = user()
    const zip = screen.getByLabelText('ZIP code')
    await u.type(zip, '123')
    await u.click(screen.getByRole('button', { name: 'See my rates' }))
    expect(zip.getAttribute('aria-invalid')).toBe('true')
    const error = document.getElementById(String(zip.getAttribute('aria-describedby')))
    expect(error?.textContent).toBe('Enter a 5-digit ZIP code, like 94107.')
    expect(document.activeElement).toBe(zip)
    expect(bff.log.creates).toHaveLength(0)
    await u.clear(zip)
    await u.type(zip, '94107')
    await u.click(screen.getByRole('radio', { name: 'Not currently insured' }))
    await u.selectOptions(screen.getByLabelText(/Number of vehicles/), '2')
    await u.click(
      within(screen.getByRole('group', { name: /own your home/ })).getByRole('radio', { name: 'No' }),
    )
    await u.click(screen.getByRole('button', { name: 'See my rates' }))
    await advance()
    expect(bff.log.creates).toHaveLength(1)
    expect(bff.log.creates[0]?.body).toMatchObject({
      autoInsuranceInformation: {
        currentIssuer: 'notinsured',
        numberOfVehicles: 2,
        policyHolderInformation: { isHomeOwner: false, isMilitary: true },
      },
      personalInformation: { zipCode: '94107' },
      clientTags: { subId: ['s1'] },
    })
    expect(screen.getByRole('progressbar')).toBeTruthy()
  })

  test('an insured visitor picks their insurer from the opened list and the search carries its id', async () => {
    const { bff } = mount('happyPath', { search: { isMilitary: true } })
    await advance()
    const u = user()
    await u.type(screen.getByLabelText('ZIP code'), '94107')
    await u.click(screen.getByRole('radio', { name: 'Currently insured' }))
    await u.click(screen.getByRole('radio', { name: 'Acme Mutual' }))
    await u.click(screen.getByRole('button', { name: 'See my rates' }))
    await advance()
    expect(bff.log.creates).toHaveLength(1)
    expect(bff.log.creates[0]?.body).toMatchObject({ autoInsuranceInformation: { currentIssuer: 'acme' } })
  })

  test("the BFF's 400 field errors come back inline on the form", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    server.use(refusing({ field: 'personalInformation.zipCode', reason: 'ZIP 00000 is not a US ZIP code' }))
    render(<OfferWidget endpoint={ENDPOINT} search={{ zipCode: '00000' }} />)
    await advance()
    const zip = screen.getByLabelText('ZIP code')
    expect(zip.getAttribute('aria-invalid')).toBe('true')
    // Visitors read the label's sentence; the BFF's developer message goes to the console and onError.
    expect(screen.getByText('Enter a 5-digit ZIP code, like 94107.')).toBeTruthy()
    expect(screen.queryByText('ZIP 00000 is not a US ZIP code')).toBeNull()
    expect(
      warn.mock.calls
        .flat()
        .map((a) => JSON.stringify(a))
        .join(),
    ).toContain('ZIP 00000 is not a US ZIP code')
    warn.mockRestore()
  })

  test('a refused field the form does not hold gets the generic visitor sentence, not the BFF text', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onError = vi.fn()
    // The refused search shows the form, which asks the BFF for its issuers.
    server.use(...scenarios.happyPath.create().handlers)
    server.use(refusing({ field: 'clientTags.subId.0', reason: 'too long' }))
    render(<OfferWidget endpoint={ENDPOINT} search={{ zipCode: '94107' }} onError={onError} />)
    await advance()
    expect(screen.getByText(DEFAULT_LABELS.searchRefused)).toBeTruthy()
    expect(screen.queryByText('too long')).toBeNull()
    expect(onError.mock.calls[0]?.[0].fieldErrors).toEqual([
      { field: 'clientTags.subId.0', reason: 'too long' },
    ])
    warn.mockRestore()
  })

  test("form='never' searches without a ZIP code; form='always' shows the form, prefilled", async () => {
    const first = mount('happyPath', { form: 'never', search: {} })
    await advance()
    expect(first.bff.log.creates).toHaveLength(1)
    first.view.unmount()
    const second = mount('happyPath', { form: 'always', search: visitor })
    await advance()
    expect(second.bff.log.creates).toHaveLength(0)
    expect((screen.getByLabelText('ZIP code') as HTMLInputElement).value).toBe('94107')
  })

  test('everything is reachable by keyboard', async () => {
    mount('happyPath', { search: {} })
    await advance()
    const u = user()
    const reached = new Set<Element | null>()
    for (let i = 0; i < 20; i++) {
      await u.tab()
      reached.add(document.activeElement)
    }
    expect(reached.has(screen.getByLabelText('ZIP code'))).toBe(true)
    expect(reached.has(screen.getByRole('button', { name: 'See my rates' }))).toBe(true)
  })
})

describe('publisher surface', () => {
  test('labels override every visible string they name', async () => {
    mount('happyPath', {
      labels: {
        heading: 'Vos offres',
        progressNone: '{answered}/{total} assureurs',
        progress: '{count} offres, encore {pending}',
        viewRate: 'Voir',
      },
    })
    await advance(1000)
    expect(screen.getByRole('heading', { name: 'Vos offres' })).toBeTruthy()
    expect(screen.getByText('0/3 assureurs')).toBeTruthy()
    await advance(1000)
    expect(screen.getAllByRole('link')[0]?.textContent).toMatch(/^Voir/)
  })

  test('theme preset and --ow-* variables land on the root; unknown properties are ignored', async () => {
    const { view } = mount('happyPath', {
      theme: 'dark',
      themeVariables: { '--ow-color-accent': '#0a7', '--ow-radius': '0', ...({ color: 'red' } as object) },
    })
    await advance()
    const root = view.container.querySelector('.ow-root') as HTMLElement
    expect(root.getAttribute('data-ow-theme')).toBe('dark')
    expect(root.style.getPropertyValue('--ow-color-accent')).toBe('#0a7')
    expect(root.style.getPropertyValue('--ow-radius')).toBe('0')
    expect(root.style.color).toBe('')
  })

  test('a polite live region announces new results', async () => {
    mount('offersOverTime')
    await advance(2000)
    const status = screen.getByRole('status')
    expect(status.getAttribute('aria-live')).toBe('polite')
    expect(status.textContent).toBe('1 new offer')
    await advance(2000)
    expect(status.textContent).toBe('2 new offers')
  })

  test('its own QueryClient: a host page client is never touched', async () => {
    const host = new QueryClient()
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    render(
      <QueryClientProvider client={host}>
        <OfferWidget endpoint={ENDPOINT} search={visitor} />
      </QueryClientProvider>,
    )
    await advance(3000)
    expect(cards().length).toBeGreaterThan(0)
    expect(host.getQueryCache().getAll()).toHaveLength(0)
  })

  test('attaches to a search the publisher created on its server', async () => {
    const bff = scenarios.happyPath.create()
    const attach = bff.seedSearch()
    mount(bff, { attach, search: undefined })
    await advance(3000)
    expect(bff.log.creates).toHaveLength(0)
    expect(cards().length).toBe(4)
  })
})

describe('CSS delivery', () => {
  test('injected once into document.head, with the nonce, for any number of widgets', async () => {
    for (const el of document.head.querySelectorAll('style[data-offer-widget-styles]')) el.remove()
    mount('happyPath', { nonce: 'abc' })
    mount('happyPath')
    await advance()
    const styles = document.head.querySelectorAll('style[data-offer-widget-styles]')
    expect(styles).toHaveLength(1)
    expect((styles[0] as HTMLStyleElement).nonce).toBe('abc')
  })

  test('injectStyles={false} leaves CSS delivery to the host', async () => {
    for (const el of document.head.querySelectorAll('style[data-offer-widget-styles]')) el.remove()
    mount('happyPath', { injectStyles: false })
    await advance()
    expect(document.head.querySelector('style[data-offer-widget-styles]')).toBeNull()
  })

  test('inside a shadow root the style goes into that root, not the document', async () => {
    for (const el of document.head.querySelectorAll('style[data-offer-widget-styles]')) el.remove()
    const host = document.createElement('div')
    document.body.append(host)
    const shadow = host.attachShadow({ mode: 'open' })
    const container = document.createElement('div')
    shadow.append(container)
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    const view = render(<OfferWidget endpoint={ENDPOINT} search={visitor} />, { container })
    await advance()
    expect(shadow.querySelector('style[data-offer-widget-styles]')).not.toBeNull()
    expect(document.head.querySelector('style[data-offer-widget-styles]')).toBeNull()
    view.unmount()
    host.remove()
  })
})

describe('second look', () => {
  test("submits the publisher's lead once, shows no insurance form, and renders the winners", async () => {
    const { bff, view } = mount('happyPath', { source: 'second-look', lead: SAMPLE_LEAD, search: undefined })
    await advance(3000)
    expect(bff.log.creates.map((c) => [c.source, c.body])).toEqual([['/api/second-look', SAMPLE_LEAD]])
    expect(view.container.querySelector('form')).toBeNull()
    expect(cards().length).toBeGreaterThan(0)
  })

  test('a lead the BFF rejects (400) is an error, never the insurance form', async () => {
    const { view } = mount('happyPath', {
      source: 'second-look',
      lead: { ...SAMPLE_LEAD, creditInformation: {} },
      search: undefined,
    })
    await advance(100)
    expect(view.container.querySelector('form')).toBeNull()
    expect(view.container.querySelector('[data-ow-status="error"]')).not.toBeNull()
  })
})
