/**
 * @module Deterministic sandbox scenarios chosen by ZIP code. Scenario ZIPs begin with `000`, which no
 * real ZIP does; any other ZIP, or none, gets the default scenario. README, tests, the playground and the
 * e2e suite all read this table, so a scenario is changed here and nowhere else.
 */
import { PARTNERS, type SandboxPartner } from './partners.ts'

export interface OfferTemplate {
  /** Carrier id (see carriers.ts). */
  carrier: string
  rank: number
  /** docs/offer-search-api.md: "Only offers with status `active` are displayed"; other values: "not shown". */
  status?: string
  isMonetized?: boolean
  /** How many impression pixel URLs the offer carries. */
  pixels?: number
  headline?: string
  descriptionPoints?: string[]
  productDisplayName?: string
  financialInstitutionDisplayName?: string
}

interface PartnerResponseTemplate {
  partner: SandboxPartner
  /** When the partner answers, in ms after the rate table's `createdAt`; 0 answers within the POST. */
  delayMs: number
  offers: OfferTemplate[]
}

/** Polls that fail by design in a time window after creation (statuses cycle poll by poll). */
interface PollFailure {
  statuses: readonly (429 | 500 | 503)[]
  /** Polls earlier than this many ms after `createdAt` fail; `Infinity` fails them all. */
  untilMs: number
  retryAfterSeconds?: number
}

export interface Scenario {
  /** The ZIP that selects it; `undefined` for the default scenario. */
  zip: string | undefined
  name: string
  description: string
  partners: readonly PartnerResponseTemplate[]
  pollFailure?: PollFailure
}

/** ZIPs with this prefix never exist, so a scenario cannot be picked by a real visitor by accident. */
export const SCENARIO_ZIP_PREFIX = '000'

const p = PARTNERS

/** Ranks are deliberately out of array order and unrelated to arrival order (seed: "display ascending"). */
const arriving: PartnerResponseTemplate[] = [
  {
    partner: p.meridian,
    delayMs: 0,
    offers: [
      { carrier: 'granite-mutual', rank: 3, pixels: 2 },
      { carrier: 'lakeshore-auto', rank: 5, isMonetized: false, pixels: 3 },
    ],
  },
  {
    partner: p.brightway,
    delayMs: 1500,
    offers: [
      { carrier: 'bluepeak', rank: 1, pixels: 3 },
      { carrier: 'harborview-casualty', rank: 6, status: 'inactive', pixels: 2 },
    ],
  },
  {
    partner: p.northstar,
    delayMs: 3000,
    offers: [
      { carrier: 'redwood-general', rank: 4, isMonetized: false, pixels: 2 },
      { carrier: 'summit-state', rank: 2, pixels: 2 },
    ],
  },
  { partner: p.pinecrest, delayMs: 4800, offers: [{ carrier: 'prairie-farm', rank: 7, pixels: 3 }] },
]

const WORD_WITHOUT_BREAKS = `Supercalifragilisticexpialidocious${'-multi-policy-discount'.repeat(4)}`
const longSentence = (topic: string) =>
  `${topic}: drivers who bundle their home, renters or condo policy with auto, keep a clean record for ` +
  'three years, complete an approved defensive driving course and enroll in paperless billing with ' +
  'automatic payments may qualify for several stacked discounts, subject to state availability.'

const longOffer = (carrier: string, rank: number, isMonetized = true): OfferTemplate => ({
  carrier,
  rank,
  isMonetized,
  pixels: 4,
  headline:
    'Switch today and lock in a personalized six-month auto insurance rate with accident forgiveness, ' +
    'new-car replacement, roadside assistance and rental reimbursement included at no extra cost for ' +
    // The price last, where a clamp would cut it first (issue 41: a figure is never clamped).
    `qualifying drivers in your state ${WORD_WITHOUT_BREAKS}, from $52/mo`,
  descriptionPoints: [
    longSentence('Bundling'),
    longSentence('Safe driving'),
    WORD_WITHOUT_BREAKS,
    // Past the bullets a collapsed card shows: its figure still shows.
    `Pay in full and save 12% on a six-month policy. ${longSentence('Pay in full')}`,
    longSentence('Telematics'),
    longSentence('Paperless'),
    longSentence('Good student'),
    longSentence('Multi-car'),
    longSentence('Loyalty'),
  ],
  productDisplayName: 'Personal Auto Insurance with Comprehensive, Collision and Uninsured Motorist Coverage',
  financialInstitutionDisplayName:
    'The Exceptionally Long Named Mutual Casualty and Property Insurance Company of the Greater Midwest',
})

const longCopyPartner: SandboxPartner = {
  ...p.oakline,
  description: longSentence('About Oakline').repeat(4),
  disclaimer: Array.from({ length: 12 }, (_, i) => `${i + 1}. ${longSentence('Disclosure')}`).join('\n'),
}

const allUnmonetized = arriving.map((response) => ({
  ...response,
  offers: response.offers.map((offer) => ({ ...offer, isMonetized: false })),
}))

export const DEFAULT_SCENARIO: Scenario = {
  zip: undefined,
  name: 'offers-arriving',
  description: 'Four partners answer over about 5 s (0 s, 1.5 s, 3 s, 4.8 s); seven offers, one inactive.',
  partners: arriving,
}

const scenarioList: Scenario[] = [
  { ...DEFAULT_SCENARIO, zip: '00001' },
  {
    zip: '00002',
    name: 'no-offers',
    description: 'Two partners answer with nothing (0.8 s, 2 s); the search completes with empty offers.',
    partners: [
      { partner: p.brightway, delayMs: 800, offers: [] },
      { partner: p.meridian, delayMs: 2000, offers: [] },
    ],
  },
  {
    zip: '00003',
    name: 'slow-partner',
    description: 'The default offers, plus a partner that answers only after 30 s, past the 15 s window.',
    partners: [
      ...arriving,
      { partner: p.tortoise, delayMs: 30_000, offers: [{ carrier: 'ironbridge-indemnity', rank: 8 }] },
    ],
  },
  {
    zip: '00004',
    name: 'transient-5xx',
    description: 'Polls in the first 3 s answer 503 / 500 alternately, then recover; default offers.',
    partners: arriving,
    pollFailure: { statuses: [503, 500], untilMs: 3000 },
  },
  {
    zip: '00005',
    name: 'persistent-5xx',
    description: 'The POST succeeds; every poll answers 503 / 500 alternately, forever.',
    partners: arriving,
    pollFailure: { statuses: [503, 500], untilMs: Number.POSITIVE_INFINITY },
  },
  {
    zip: '00006',
    name: 'rate-limited',
    description: 'Polls in the first 4 s answer 429 with Retry-After: 1, then recover; default offers.',
    partners: arriving,
    pollFailure: { statuses: [429], untilMs: 4000, retryAfterSeconds: 1 },
  },
  {
    zip: '00007',
    name: 'non-active',
    description: 'Five offers, only one `active` (others inactive, expired, pending, suspended).',
    partners: [
      {
        partner: p.brightway,
        delayMs: 600,
        offers: [
          { carrier: 'granite-mutual', rank: 2, status: 'inactive' },
          { carrier: 'lakeshore-auto', rank: 1, status: 'expired' },
        ],
      },
      {
        partner: p.northstar,
        delayMs: 2000,
        offers: [
          { carrier: 'bluepeak', rank: 4, status: 'pending' },
          { carrier: 'summit-state', rank: 3 },
        ],
      },
      {
        partner: p.oakline,
        delayMs: 3500,
        offers: [{ carrier: 'redwood-general', rank: 5, status: 'suspended' }],
      },
    ],
  },
  {
    zip: '00008',
    name: 'long-copy',
    description:
      'Very long headlines, bullets, names, an unbreakable word, prices at the end of long copy and a 12-paragraph disclaimer.',
    partners: [
      {
        partner: p.northstar,
        delayMs: 500,
        offers: [longOffer('coastal-shield', 2), longOffer('evergreen-direct', 1, false)],
      },
      { partner: longCopyPartner, delayMs: 2000, offers: [longOffer('ironbridge-indemnity', 3)] },
    ],
  },
  {
    zip: '00009',
    name: 'disclaimers',
    description: 'Five partners over 4 s: four distinct disclaimers (one multi-line), one empty.',
    partners: [
      { partner: p.brightway, delayMs: 1000, offers: [{ carrier: 'granite-mutual', rank: 2 }] },
      { partner: p.northstar, delayMs: 2000, offers: [{ carrier: 'summit-state', rank: 1 }] },
      { partner: p.oakline, delayMs: 3000, offers: [{ carrier: 'coastal-shield', rank: 3 }] },
      { partner: p.pinecrest, delayMs: 3500, offers: [{ carrier: 'prairie-farm', rank: 4 }] },
      { partner: p.tortoise, delayMs: 4000, offers: [] },
    ],
  },
  {
    zip: '00010',
    name: 'unmonetized',
    description: 'The default offers with `isMonetized: false` on every one (links use `unmonetizedUrl`).',
    partners: allUnmonetized,
  },
]

/** Summary of one scenario for README, tests, the playground and e2e tests. */
export interface ScenarioInfo {
  zip: string
  name: string
  description: string
  /** Offers in the final rate table, and how many of them are `active`. */
  offerCount: number
  activeOfferCount: number
  /** Ms after `createdAt` when `pendingResponses` becomes empty. */
  completesAfterMs: number
}

export const SCENARIOS: readonly ScenarioInfo[] = scenarioList.map((scenario) => ({
  zip: scenario.zip ?? '',
  name: scenario.name,
  description: scenario.description,
  offerCount: scenario.partners.reduce((n, r) => n + r.offers.length, 0),
  activeOfferCount: scenario.partners.reduce(
    (n, r) => n + r.offers.filter((o) => (o.status ?? 'active') === 'active').length,
    0,
  ),
  completesAfterMs: Math.max(0, ...scenario.partners.map((r) => r.delayMs)),
}))

const byZip = new Map(scenarioList.map((scenario) => [scenario.zip, scenario]))

/** The scenario a ZIP selects; the default for any other ZIP or none (ZIP+4 uses its first five digits). */
export function scenarioForZip(zip: string | undefined): Scenario {
  if (zip === undefined) return DEFAULT_SCENARIO
  return byZip.get(zip.slice(0, 5)) ?? DEFAULT_SCENARIO
}

/** The ZIP that selects a scenario by name, for tests and the playground. */
export function zipOfScenario(name: string): string {
  const found = scenarioList.find((scenario) => scenario.name === name)
  if (!found?.zip) throw new Error(`sandbox: no scenario named "${name}"`)
  return found.zip
}
