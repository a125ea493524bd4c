/**
 * @module docs/offer-search-api.md's display rules, quoted, with examples and fast-check properties.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { Offer } from '../../src/contract/offer-search.ts'
import { makeOffer } from '../../src/playground/scenarios/fixtures.ts'
import { chooseOfferUrl, isActive, toDisplayOffers } from '../../src/widget/display-rules.ts'
import { safeHttpUrl } from '../../src/widget/safe-url.ts'

const isHttp = (url: string | undefined) => url === undefined || /^https?:\/\//.test(url)

const urlArb = fc.oneof(
  fc.webUrl(),
  fc.constantFrom(
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'ftp://files.example/x',
    '//evil.example/x',
    '/relative/path',
    '',
    'not a url',
  ),
)
const offerArb: fc.Arbitrary<Offer> = fc
  .record({
    uuid: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
    rank: fc.integer({ min: -3, max: 10 }),
    status: fc.constantFrom('active', 'inactive', 'expired', 'ACTIVE', 'Active', ''),
    isMonetized: fc.boolean(),
    url: urlArb,
    unmonetizedUrl: urlArb,
    financialInstitutionImageUrl: urlArb,
    impressionTrackingPixelUrls: fc.array(urlArb, { maxLength: 4 }),
  })
  .map((fields) => makeOffer(fields))

describe('rule 1: "Show only offers whose `status` is `active`."', () => {
  test('other statuses, including other cases of the word, are not shown', () => {
    const offers = ['active', 'inactive', 'ACTIVE', 'expired', 'Active'].map((status, i) =>
      makeOffer({ rank: i + 1, status, headline: status }),
    )
    expect(toDisplayOffers(offers).map((o) => o.headline)).toEqual(['active'])
    expect(isActive({ status: 'active' })).toBe(true)
    expect(isActive({ status: 'paused' })).toBe(false)
  })

  test('property: the output is active offers only', () => {
    fc.assert(
      fc.property(fc.array(offerArb, { maxLength: 12 }), (offers) => {
        const shown = new Set(toDisplayOffers(offers).map((o) => o.uuid))
        for (const uuid of shown)
          expect(offers).toContainEqual(expect.objectContaining({ uuid, status: 'active' }))
      }),
    )
  })
})

describe('rule 2: "Order by `rank` ascending."', () => {
  test('rank 1 first; ties keep their upstream order', () => {
    const offers = [
      makeOffer({ rank: 3, headline: 'c' }),
      makeOffer({ rank: 1, headline: 'a' }),
      makeOffer({ rank: 2, headline: 'b1' }),
      makeOffer({ rank: 2, headline: 'b2' }),
    ]
    expect(toDisplayOffers(offers).map((o) => o.headline)).toEqual(['a', 'b1', 'b2', 'c'])
  })

  test('property: sorted by rank, stable for ties, one card per uuid', () => {
    fc.assert(
      fc.property(fc.array(offerArb, { maxLength: 12 }), (offers) => {
        const shown = toDisplayOffers(offers)
        for (let i = 1; i < shown.length; i++) {
          expect((shown[i - 1]?.rank ?? 0) <= (shown[i]?.rank ?? 0)).toBe(true)
        }
        expect(new Set(shown.map((o) => o.uuid)).size).toBe(shown.length)
        const expected = offers
          .map((o, i) => ({ o, i }))
          .filter(({ o }) => o.status === 'active')
          .sort((a, b) => a.o.rank - b.o.rank || a.i - b.i)
          .filter(({ o }, i, all) => all.findIndex((x) => x.o.uuid === o.uuid) === i)
          .filter(({ o }) => isHttp(o.isMonetized ? o.url : o.unmonetizedUrl))
          .map(({ o }) => o.uuid)
        expect(shown.map((o) => o.uuid)).toEqual(expected)
      }),
    )
  })
})

describe('rule 3: "Use `url` when `isMonetized` is true; use `unmonetizedUrl` when the offer should not be tracked for monetization."', () => {
  const offer = makeOffer({
    rank: 1,
    url: 'https://m.example/click',
    unmonetizedUrl: 'https://u.example/quote',
  })

  test('monetized offers link to url, unmonetized ones to unmonetizedUrl', () => {
    expect(chooseOfferUrl({ ...offer, isMonetized: true })).toEqual({
      href: 'https://m.example/click',
      monetized: true,
    })
    expect(chooseOfferUrl({ ...offer, isMonetized: false })).toEqual({
      href: 'https://u.example/quote',
      monetized: false,
    })
  })

  test('preview mode always uses unmonetizedUrl, so previews are never tracked', () => {
    expect(chooseOfferUrl({ ...offer, isMonetized: true }, { preview: true }).href).toBe(
      'https://u.example/quote',
    )
    expect(toDisplayOffers([{ ...offer, isMonetized: true }], { preview: true })[0]?.href).toBe(
      'https://u.example/quote',
    )
  })

  test('an offer whose chosen link is not http(s) is not shown (no dead card); the others are', () => {
    const hostile = makeOffer({ rank: 1, isMonetized: true, url: 'javascript:alert(1)' })
    const good = makeOffer({ rank: 2 })
    expect(toDisplayOffers([hostile, good]).map((o) => o.uuid)).toEqual([good.uuid])
    // A preview takes unmonetizedUrl, which is http(s) here: shown.
    expect(toDisplayOffers([hostile], { preview: true }).map((o) => o.uuid)).toEqual([hostile.uuid])
  })

  test('property: never a non-http(s) link, logo or pixel', () => {
    fc.assert(
      fc.property(fc.array(offerArb, { maxLength: 12 }), fc.boolean(), (offers, preview) => {
        for (const shown of toDisplayOffers(offers, { preview })) {
          expect(isHttp(shown.href)).toBe(true)
          expect(isHttp(shown.carrierLogoUrl)).toBe(true)
          for (const pixel of shown.pixelUrls) expect(isHttp(pixel)).toBe(true)
          const sources = offers.filter((o) => o.uuid === shown.uuid && o.status === 'active')
          if (preview || sources.every((o) => !o.isMonetized)) expect(shown.monetized).toBe(false)
        }
      }),
    )
  })
})

describe('safeHttpUrl', () => {
  test('keeps absolute http(s), drops everything else', () => {
    expect(safeHttpUrl('https://a.example/x?y=1')).toBe('https://a.example/x?y=1')
    expect(safeHttpUrl('HTTP://A.example')).toBe('http://a.example/')
    for (const bad of [
      'javascript:alert(1)',
      'data:,x',
      '/x',
      '//a.example',
      'mailto:a@b',
      '',
      undefined,
      42,
    ]) {
      expect(safeHttpUrl(bad)).toBeUndefined()
    }
  })
})
