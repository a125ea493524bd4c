/**
 * @module msw handlers for the widget: the happy path grouped by route, and named scenarios (the second
 * look's in second-look-scenarios.ts). The widget tests run them with `msw/node`; the playground runs the same
 * ones in the browser's service worker.
 */
import { HttpResponse, http, type RequestHandler } from 'msw'
import { createFakeBff, type Scenario } from './fake-bff.ts'
import type { PartnerScript } from './fake-searches.ts'
import { ASSET_ORIGIN, makeOffer, makePartner } from './fixtures.ts'
import { secondLookScenarios } from './second-look-scenarios.ts'

const answering = (
  name: string,
  answersAfterMs: number | null,
  offers: number,
  disclaimer = '',
): PartnerScript => ({
  partner: makePartner({ name, disclaimer }),
  answersAfterMs,
  offers: Array.from({ length: offers }, (_, i) =>
    makeOffer({
      rank: 0,
      financialInstitutionDisplayName: name,
      headline: `${name}: save up to ${15 + i * 5}% on auto insurance`,
    }),
  ),
})

/** Ranks offers across partners in arrival order, the way the upstream ranks a growing table. */
function ranked(partners: PartnerScript[]): PartnerScript[] {
  let rank = 0
  for (const p of partners) for (const offer of p.offers) offer.rank = ++rank
  return partners
}

const unavailable = (retryAfter?: string) =>
  HttpResponse.json(
    { code: 'upstream_unavailable', message: 'The offer service is briefly unavailable' },
    { status: 503, ...(retryAfter !== undefined && { headers: { 'Retry-After': retryAfter } }) },
  )
const rateLimited = (retryAfter?: string) =>
  HttpResponse.json(
    { code: 'rate_limited', message: 'Slow down' },
    { status: 429, ...(retryAfter !== undefined && { headers: { 'Retry-After': retryAfter } }) },
  )

const LONG = 'Exceptionally long partner copy that keeps going '.repeat(12).trim()

export const scenarios = {
  happyPath: {
    title: 'Happy path',
    description: 'Three insurers answer within three seconds.',
    create: () =>
      createFakeBff({
        partners: ranked([
          answering('Acme Mutual', 1200, 2, 'Acme Mutual Insurance Co., licensed in all 50 states.'),
          answering('Bluebonnet Insurance', 2100, 1),
          answering('Cardinal Auto', 2900, 1),
        ]),
      }),
  },
  offersOverTime: {
    title: 'Offers arriving over time',
    description: 'Five insurers answer between 1.5 s and 11 s; one has nothing to offer.',
    create: () =>
      createFakeBff({
        partners: ranked([
          answering('Acme Mutual', 1500, 1),
          answering('Bluebonnet Insurance', 3200, 2),
          answering('Cardinal Auto', 5000, 0),
          answering('Delta Direct', 8000, 1),
          answering('Evergreen General', 11_000, 1),
        ]),
      }),
  },
  noOffers: {
    title: 'No offers',
    description: 'Every insurer answers, none with an offer: a completed search with nothing to show.',
    create: () =>
      createFakeBff({
        partners: [answering('Acme Mutual', 1000, 0), answering('Bluebonnet Insurance', 1800, 0)],
      }),
  },
  partnerNeverAnswers: {
    title: 'A partner never answers',
    description: 'Two insurers answer; the third is still pending when the 15 s window closes.',
    create: () =>
      createFakeBff({
        partners: ranked([
          answering('Acme Mutual', 1000, 1),
          answering('Bluebonnet Insurance', 2000, 1),
          answering('Slowpoke Casualty', null, 1),
        ]),
      }),
  },
  rateLimitStorm: {
    title: '429 storm',
    description: 'The first four polls are rate limited (Retry-After 2, then none, an HTTP-date, none).',
    create: () =>
      createFakeBff({
        partners: ranked([answering('Acme Mutual', 1000, 1), answering('Bluebonnet Insurance', 2000, 1)]),
        pollFailure: (poll) => {
          if (poll === 1) return rateLimited('2')
          if (poll === 2) return rateLimited()
          if (poll === 3) return rateLimited(new Date(Date.now() + 1000).toUTCString())
          if (poll === 4) return rateLimited()
          return undefined
        },
      }),
  },
  serverErrorThenRecovery: {
    title: '5xx then recovery',
    description: 'Two polls fail with 503, then the search completes normally.',
    create: () =>
      createFakeBff({
        partners: ranked([answering('Acme Mutual', 1000, 1), answering('Bluebonnet Insurance', 2500, 1)]),
        pollFailure: (poll) => (poll <= 2 ? unavailable() : undefined),
      }),
  },
  persistentServerError: {
    title: 'Persistent 5xx',
    description: 'Every poll fails with 503: after 15 s the visitor sees an error and "Try again".',
    create: () =>
      createFakeBff({
        partners: [answering('Acme Mutual', 1000, 1)],
        pollFailure: () => unavailable(),
      }),
  },
  declaredBot: {
    title: 'Refused browser',
    description:
      'The BFF refuses the search with 403 forbidden (its User-Agent names a crawler, script or headless browser): the visitor is told, with no "Try again" that would be refused forever.',
    create: () =>
      createFakeBff({
        partners: [answering('Acme Mutual', 1000, 1)],
        createFailure: () =>
          HttpResponse.json(
            {
              code: 'forbidden',
              message:
                'Declared bots do not run offer searches (each one is billed): this User-Agent names a crawler, script or headless browser.',
            },
            { status: 403 },
          ),
      }),
  },
  nonActiveOffers: {
    title: 'Non-active offers',
    description: 'Offers with status other than "active" are not shown.',
    create: () =>
      createFakeBff({
        partners: [
          {
            partner: makePartner({ name: 'Acme Mutual' }),
            answersAfterMs: 1000,
            offers: [
              makeOffer({ rank: 1, headline: 'Inactive offer', status: 'inactive' }),
              makeOffer({ rank: 2, headline: 'Active offer', status: 'active' }),
              makeOffer({ rank: 3, headline: 'Expired offer', status: 'expired' }),
              makeOffer({ rank: 4, headline: 'Shouting offer', status: 'ACTIVE' }),
            ],
          },
        ],
      }),
  },
  unmonetizedOffers: {
    title: 'Unmonetized offers',
    description: 'Offers with isMonetized false link to unmonetizedUrl; one has a javascript: url.',
    create: () =>
      createFakeBff({
        partners: [
          {
            partner: makePartner({ name: 'Acme Mutual' }),
            answersAfterMs: 1000,
            offers: [
              makeOffer({ rank: 1, headline: 'Unmonetized offer', isMonetized: false }),
              makeOffer({ rank: 2, headline: 'Monetized offer', isMonetized: true }),
              makeOffer({
                rank: 3,
                headline: 'Hostile offer',
                isMonetized: true,
                url: 'javascript:alert(document.cookie)',
                financialInstitutionImageUrl: 'javascript:alert(1)',
                impressionTrackingPixelUrls: ['javascript:alert(2)', 'data:image/gif;base64,R0lGOD'],
              }),
            ],
          },
        ],
      }),
  },
  disclaimers: {
    title: 'Disclaimers',
    description:
      'Partners with long, empty and markup-looking disclaimers; each shows while an offer of its partner is on screen.',
    create: () =>
      createFakeBff({
        partners: ranked([
          answering('Acme Mutual', 1000, 1, 'Acme Mutual Insurance Company. CA License #0A12345.'),
          answering('Bluebonnet Insurance', 2000, 0, ''),
          answering('Cardinal Auto', 3000, 1, `Cardinal Auto Insurance Agency. ${LONG}`),
          answering('Delta Direct', 4000, 1, '<b>Delta</b> Direct, licensed producer.'),
        ]),
      }),
  },
  longCopy: {
    title: 'Very long copy',
    description: 'Headlines, bullets and names far longer than designers expect.',
    create: () =>
      createFakeBff({
        partners: [
          {
            partner: makePartner({ name: 'Acme Mutual' }),
            answersAfterMs: 1000,
            offers: [
              makeOffer({
                rank: 1,
                headline: LONG,
                productDisplayName: `Auto insurance ${LONG}`,
                financialInstitutionDisplayName: `The Extraordinarily Long Named Mutual ${LONG}`,
                descriptionPoints: Array.from({ length: 8 }, (_, i) => `${i + 1}. ${LONG}`),
              }),
            ],
          },
        ],
      }),
  },
  ...secondLookScenarios,
} satisfies Record<string, Scenario>

export type ScenarioName = keyof typeof scenarios

/** Logos and pixels on the fake asset host, so the playground shows images and logs pixel hits. */
export const assetHandlers: RequestHandler[] = [
  http.get(`${ASSET_ORIGIN}/logos/:name`, ({ params }) => {
    const letter = String(params.name).charAt(0).toUpperCase()
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><rect width="48" height="48" rx="8" fill="#3558d6"/><text x="24" y="31" font-size="22" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`
    return new HttpResponse(svg, { headers: { 'Content-Type': 'image/svg+xml' } })
  }),
  http.get(`${ASSET_ORIGIN}/pixels/*`, () => new HttpResponse(null, { status: 204 })),
]
