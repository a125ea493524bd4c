/**
 * @module The playground's stories: one per scenario, each with the msw scenario it runs on, the sandbox
 * scenario that gives the same story against the real BFF, and the widget args it starts from (what
 * "Reset" returns to). What each mode shows is described by the scenario itself (the msw handlers' and the
 * sandbox's own descriptions), so a story's text cannot drift from what the backend serves.
 */
import { SCENARIOS, zipOfScenario } from '../sandbox/scenarios.ts'
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

export const STORIES: Story[] = [
  {
    id: 'offers-arriving',
    title: 'Offers arriving over time',
    summary: 'Partners answer one after another; offers join the list in rank order as they arrive.',
    scenario: 'offersOverTime',
    bff: onSandbox('offers-arriving'),
    args: {},
  },
  {
    id: 'no-offers',
    title: 'No offers',
    summary: 'Every partner answers with nothing: a completed search with nothing to show.',
    scenario: 'noOffers',
    bff: onSandbox('no-offers'),
    args: {},
  },
  {
    id: 'partner-never-answers',
    title: 'A partner never answers',
    summary: 'One partner is still pending when the 15 s window closes; the others stay on screen.',
    scenario: 'partnerNeverAnswers',
    bff: onSandbox('slow-partner'),
    args: {},
  },
  {
    id: 'rate-limit-storm',
    title: '429 storm',
    summary: 'Polls are rate limited, then recover: the widget honours Retry-After and carries on.',
    scenario: 'rateLimitStorm',
    bff: onSandbox('rate-limited'),
    args: {},
  },
  {
    id: '5xx-then-recovery',
    title: '5xx then recovery',
    summary: 'Polls fail with 503 / 500 for a while, then the search completes normally.',
    scenario: 'serverErrorThenRecovery',
    bff: onSandbox('transient-5xx'),
    args: {},
  },
  {
    id: 'persistent-5xx',
    title: 'Persistent 5xx',
    summary: 'Every poll fails: the search ends gracefully when the 15 s window closes.',
    scenario: 'persistentServerError',
    bff: onSandbox('persistent-5xx'),
    args: {},
  },
  {
    id: 'non-active',
    title: 'Non-active offers filtered out',
    summary: 'Only offers with status "active" are shown.',
    scenario: 'nonActiveOffers',
    bff: onSandbox('non-active'),
    args: {},
  },
  {
    id: 'unmonetized',
    title: 'Unmonetized offers',
    summary: 'isMonetized false links to unmonetizedUrl; unsafe URLs are dropped.',
    scenario: 'unmonetizedOffers',
    bff: onSandbox('unmonetized'),
    args: {},
  },
  {
    id: 'disclaimers',
    title: 'Disclaimers',
    summary: 'Long, empty and repeated partner disclaimers, kept after partners answer.',
    scenario: 'disclaimers',
    bff: onSandbox('disclaimers'),
    args: {},
  },
  {
    id: 'long-copy',
    title: 'Very long copy',
    summary: 'Headlines, bullets and names far longer than designers expect.',
    scenario: 'longCopy',
    bff: onSandbox('long-copy'),
    args: {},
  },
  {
    id: 'form-empty',
    title: 'Form, empty',
    summary: 'Nothing known about the visitor: the form asks first.',
    scenario: 'happyPath',
    bff: { note: 'Type any ZIP code: 00001–00010 pick a sandbox scenario, any other the default one.' },
    args: { form: 'auto', search: {} },
  },
  {
    id: 'form-prefilled',
    title: 'Form, pre-filled',
    summary: 'form="always" with everything the page knows filled in.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: { form: 'always', search: PREFILLED },
  },
  {
    id: 'dark-theme',
    title: 'Dark theme',
    summary: 'The dark preset on a dark page.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: { theme: 'dark' },
  },
  {
    id: 'spanish',
    title: 'Spanish (es-US)',
    summary:
      'The US Spanish label pack that ships with the package (`LABELS_ES_US`): every string the widget shows; "Cambiar datos" opens the form in Spanish.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: { labels: LABELS_ES_US },
  },
  {
    id: 'narrow',
    title: 'Narrow mobile width',
    summary: 'A 360 px phone: the container queries switch the cards to one column.',
    scenario: 'happyPath',
    bff: onSandbox('offers-arriving'),
    args: {},
    viewport: 360,
  },
  {
    id: 'second-look',
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
