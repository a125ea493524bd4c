/**
 * @module The playground's stories: one per scenario, each with the msw scenario it runs on, the sandbox
 * scenario that gives the same story against the real BFF, and the widget args it starts from (what
 * "Reset" returns to), and its play script: what a visitor then does and sees, checked whenever the story
 * runs in msw mode (and in CI, test/e2e/playground.e2e.ts). What each mode shows is described by the scenario
 * itself (the msw handlers' and the sandbox's own descriptions), so a story's text cannot drift from what the
 * backend serves.
 */
import { SCENARIOS, zipOfScenario } from '../sandbox/scenarios.ts'
import { formatLabel, DEFAULT_LABELS as L } from '../widget/labels.ts'
import { LABELS_ES_US } from '../widget/labels-es-us.ts'
import type { PlayStep } from './frame/play-step.ts'
import { LOAN_STORIES } from './loan-stories.ts'
import { SAMPLE_LEAD } from './scenarios/fixtures.ts'
import { scenarios } from './scenarios/handlers.ts'
import type { Story } from './story.ts'
import type { WidgetArgs } from './widget-args.ts'

/** The ZIP sent in msw mode, where the scenario is chosen by the story, not the ZIP. */
const MSW_ZIP = '94107'

const PREFILLED = {
  dateOfBirth: '1988-04-21',
  currentIssuer: 'notinsured',
  numberOfVehicles: 2,
  isHomeOwner: true,
  isMilitary: false,
}

const onSandbox = (name: string) => ({ sandbox: name })

/**
 * The search's whole 15 s window and a second more for the last poll's answer, on the frame's clock: the
 * story unfolds in real time, and "End of 15 s window" gets to what the visitor sees at the end at once.
 */
const PAST_THE_WINDOW: PlayStep = { waitSeconds: 16 }

const showMore = (count: number) => formatLabel(L.moreOffers, { count })

export const STORIES: Story[] = [
  {
    id: 'offers-arriving',
    group: 'Offer search',
    title: 'Offers arriving over time',
    summary: 'Partners answer one after another; offers join the list in rank order as they arrive.',
    scenario: 'offersOverTime',
    bff: onSandbox('offers-arriving'),
    args: {},
    play: [
      PAST_THE_WINDOW,
      // Five offers: the first three as cards (the last to answer ranks fifth), the other two one tap away.
      { expect: L.viewRate, count: 3 },
      { expect: 'Evergreen General', absent: true },
      { expect: showMore(2) },
    ],
  },
  {
    id: 'no-offers',
    group: 'Offer search',
    title: 'No offers',
    summary: 'Every partner answers with nothing: a completed search with nothing to show.',
    scenario: 'noOffers',
    bff: onSandbox('no-offers'),
    args: {},
    play: [
      PAST_THE_WINDOW,
      { expect: L.noOffers },
      { expect: L.noOffersNext },
      { expect: L.viewRate, count: 0 },
    ],
  },
  {
    id: 'partner-never-answers',
    group: 'Offer search',
    title: 'A partner never answers',
    summary: 'One partner is still pending when the 15 s window closes; the others stay on screen.',
    scenario: 'partnerNeverAnswers',
    bff: onSandbox('slow-partner'),
    args: {},
    play: [
      PAST_THE_WINDOW,
      { expect: 'Acme Mutual' },
      { expect: 'Bluebonnet Insurance' },
      { expect: L.viewRate, count: 2 },
      { expect: 'Slowpoke Casualty', absent: true },
      { expect: L.error, absent: true },
    ],
  },
  {
    id: 'rate-limit-storm',
    group: 'Offer search',
    title: '429 storm',
    summary: 'Polls are rate limited, then recover: the widget honours Retry-After and carries on.',
    scenario: 'rateLimitStorm',
    bff: onSandbox('rate-limited'),
    args: {},
    play: [PAST_THE_WINDOW, { expect: L.viewRate, count: 2 }, { expect: L.error, absent: true }],
  },
  {
    id: '5xx-then-recovery',
    group: 'Offer search',
    title: '5xx then recovery',
    summary: 'Polls fail with 503 / 500 for a while, then the search completes normally.',
    scenario: 'serverErrorThenRecovery',
    bff: onSandbox('transient-5xx'),
    args: {},
    play: [PAST_THE_WINDOW, { expect: L.viewRate, count: 2 }, { expect: L.error, absent: true }],
  },
  {
    id: 'persistent-5xx',
    group: 'Offer search',
    title: 'Persistent 5xx',
    summary: 'Every poll fails: the search ends gracefully when the 15 s window closes.',
    scenario: 'persistentServerError',
    bff: onSandbox('persistent-5xx'),
    args: {},
    play: [PAST_THE_WINDOW, { expect: L.error }, { expect: L.tryAgain }, { expect: L.viewRate, count: 0 }],
  },
  {
    id: 'refused-browser',
    group: 'Offer search',
    title: 'Refused browser',
    summary:
      'The BFF answers 403 forbidden to a declared bot: the line says so, and there is no "Try again".',
    scenario: 'declaredBot',
    bff: {
      note: 'Sandbox mode refuses nothing; a server outside sandbox mode answers a declared bot this way.',
    },
    args: { search: { zipCode: MSW_ZIP } },
    play: [
      { waitSeconds: 2 },
      { expect: L.refused },
      { expect: L.tryAgain, absent: true },
      { expect: L.viewRate, count: 0 },
    ],
  },
  {
    id: 'non-active',
    group: 'Offer search',
    title: 'Non-active offers filtered out',
    summary: 'Only offers with status "active" are shown.',
    scenario: 'nonActiveOffers',
    bff: onSandbox('non-active'),
    args: {},
    play: [
      PAST_THE_WINDOW,
      { expect: 'Active offer' },
      { expect: L.viewRate, count: 1 },
      { expect: 'Inactive offer', absent: true },
      { expect: 'Expired offer', absent: true },
      // "ACTIVE" is not "active": the rule is exact.
      { expect: 'Shouting offer', absent: true },
    ],
  },
  {
    id: 'unmonetized',
    group: 'Offer search',
    title: 'Unmonetized offers',
    summary: 'isMonetized false links to unmonetizedUrl; unsafe URLs are dropped.',
    scenario: 'unmonetizedOffers',
    bff: onSandbox('unmonetized'),
    args: {},
    play: [
      PAST_THE_WINDOW,
      { expect: 'Unmonetized offer' },
      { expect: 'Monetized offer' },
      // Its only link is javascript:, so the offer has nowhere safe to go and is not shown.
      { expect: 'Hostile offer', absent: true },
      { expect: L.viewRate, count: 2 },
    ],
  },
  {
    id: 'disclaimers',
    group: 'Offer search',
    title: 'Disclaimers',
    summary: 'Long, empty and repeated partner disclaimers, kept after partners answer.',
    scenario: 'disclaimers',
    bff: onSandbox('disclaimers'),
    args: {},
    play: [
      PAST_THE_WINDOW,
      { expect: 'Acme Mutual Insurance Company. CA License #0A12345.' },
      { expect: 'Cardinal Auto Insurance Agency.' },
      // Markup in a partner's text is text: shown as written, never rendered.
      { expect: '<b>Delta</b> Direct, licensed producer.' },
    ],
  },
  {
    id: 'long-copy',
    group: 'Offer search',
    title: 'Very long copy',
    summary: 'Headlines, bullets and names far longer than designers expect.',
    scenario: 'longCopy',
    bff: onSandbox('long-copy'),
    args: {},
    play: [
      PAST_THE_WINDOW,
      { expect: 'The Extraordinarily Long Named Mutual' },
      { expect: L.viewRate, count: 1 },
    ],
  },
  {
    id: 'form-empty',
    group: 'Offer search',
    title: 'Form, empty',
    summary: 'Nothing known about the visitor: the form asks first.',
    scenario: 'happyPath',
    bff: { note: 'Type any ZIP code: 00001–00010 pick a sandbox scenario, any other the default one.' },
    args: { form: 'auto', search: {} },
    play: [
      { expect: L.formHeading },
      { expect: L.zipCode, value: '' },
      { expect: L.submit },
      { expect: L.heading, absent: true },
    ],
  },
  {
    id: 'form-prefilled',
    group: 'Offer search',
    title: 'Form, pre-filled',
    summary: 'form="always" with everything the page knows filled in.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: { form: 'always', search: PREFILLED },
    play: [
      { expect: L.formHeading },
      { expect: L.zipCode, value: MSW_ZIP },
      { expect: L.dateOfBirth, value: PREFILLED.dateOfBirth },
      { expect: L.numberOfVehicles, value: String(PREFILLED.numberOfVehicles) },
    ],
  },
  {
    id: 'dark-theme',
    group: 'Offer search',
    title: 'Dark theme',
    summary: 'The dark preset on a dark page.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: { theme: 'dark' },
    play: [PAST_THE_WINDOW, { expect: L.heading }, { expect: L.viewRate, count: 3 }, { expect: showMore(1) }],
  },
  {
    id: 'spanish',
    group: 'Offer search',
    title: 'Spanish (es-US)',
    summary:
      'The US Spanish label pack that ships with the package (`LABELS_ES_US`): every string the widget shows; "Cambiar datos" opens the form in Spanish.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: { labels: LABELS_ES_US },
    play: [
      PAST_THE_WINDOW,
      { expect: LABELS_ES_US.heading },
      { expect: LABELS_ES_US.viewRate, count: 3 },
      { expect: L.heading, absent: true },
      { click: LABELS_ES_US.changeDetails },
      { expect: LABELS_ES_US.formHeading },
      { expect: LABELS_ES_US.zipCode, value: MSW_ZIP },
    ],
  },
  {
    id: 'narrow',
    group: 'Offer search',
    title: 'Narrow mobile width',
    summary: 'A 360 px phone: the container queries switch the cards to one column.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: {},
    play: [PAST_THE_WINDOW, { expect: L.viewRate, count: 3 }, { expect: showMore(1) }],
    viewport: 360,
  },
  {
    id: 'second-look',
    group: 'Second look',
    title: 'Second look',
    summary:
      'The same widget polling the second-look marketplace (source="second-look") with a synthetic loan lead the publisher collected.',
    scenario: 'secondLookLoans',
    bff: {
      note: 'The sandbox marketplace: three first-look lenders decline or fail, the second-look tier answers (one past the 12 s window); when the lead settles at 12 s the auction winner appears. No impression pixels: the ledger records what was displayed.',
    },
    args: {
      source: 'second-look',
      lead: SAMPLE_LEAD,
      labels: {
        heading: 'Lenders who took a second look',
        lenderProgress: '{answered} of {total} lenders answered · at most {seconds} s more',
      },
    },
    play: [
      PAST_THE_WINDOW,
      { expect: 'Lenders who took a second look' },
      { expect: 'Sim Steady Finance' },
      { expect: L.viewRate, count: 1 },
      // The loan's terms as labelled figures (issue 41), not prose.
      { expect: L.termsApr },
      { expect: '11.9–35.99%' },
      { expect: L.termsAmount },
      { expect: '$1K–$12K' },
      { expect: L.termsTerm },
      { expect: '24–60 months' },
      { expect: '$398' },
      // The lender is named by its own offer: never "Quote via" a lender that left as it appeared.
      { expect: 'Quote via', absent: true },
      // Lenders that offer nothing: their own disclaimers never show.
      { expect: 'simulated partner for the sandbox; no real offer', absent: true },
    ],
  },
  ...LOAN_STORIES,
]

export function storyById(id: string | null): Story {
  return STORIES.find((story) => story.id === id) ?? (STORIES[0] as Story)
}

/** What the story shows in a mode, in the backend's own words. */
export function storyBackendText(story: Story, mode: 'msw' | 'bff'): string {
  if (mode === 'msw') return `msw scenario "${story.scenario}": ${scenarios[story.scenario].description}`
  if ('note' in story.bff) return `Real BFF and sandbox. ${story.bff.note}`
  const { sandbox } = story.bff
  const info = SCENARIOS.find((s) => s.name === sandbox)
  return `Real BFF and sandbox scenario "${sandbox}" (ZIP ${info?.zip}): ${info?.description}`
}

/** The args a story mounts with in a mode: in real BFF mode the ZIP picks the sandbox scenario. */
export function storyArgs(story: Story, mode: 'msw' | 'bff'): WidgetArgs {
  // A second-look lead carries its own ZIP; the empty form asks the visitor for one.
  if ('note' in story.bff) return story.args
  const zipCode = mode === 'bff' ? zipOfScenario(story.bff.sandbox) : MSW_ZIP
  return { ...story.args, search: { ...story.args.search, zipCode } }
}

/** The play script the frame runs after mounting the story in a mode: msw mode only (`Story.play`). */
export function storyPlay(story: Story, mode: 'msw' | 'bff'): readonly PlayStep[] | undefined {
  return mode === 'msw' ? story.play : undefined
}
