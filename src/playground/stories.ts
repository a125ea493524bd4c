/**
 * @module The playground's stories: one per scenario, each with the msw scenario it runs on and the
 * sandbox ZIP that gives the same story against the real BFF, plus the options it mounts with.
 */
import type { EmbedOptions } from '../embed/index.ts'
import { SAMPLE_LEAD } from './scenarios/fixtures.ts'
import type { ScenarioName } from './scenarios/handlers.ts'

export interface Story {
  id: string
  title: string
  description: string
  /** msw scenario (fake BFF in the service worker). */
  scenario: ScenarioName
  /** The sandbox ZIP of the same story (real BFF mode); `undefined`: the visitor types one in the form. */
  zip: string | undefined
  options?: EmbedOptions
  /** Preview width in px; `undefined`: the panel's width. */
  width?: number
}

const PREFILLED = {
  dateOfBirth: '1988-04-21',
  currentIssuer: 'notinsured',
  numberOfVehicles: 2,
  isHomeOwner: true,
  isMilitary: false,
}

export const STORIES: Story[] = [
  {
    id: 'offers-arriving',
    title: 'Offers arriving over time',
    description: 'Five insurers answer between 1.5 s and 11 s; one has nothing to offer.',
    scenario: 'offersOverTime',
    zip: '00001',
  },
  {
    id: 'no-offers',
    title: 'No offers',
    description: 'Every insurer answers with nothing: a completed search with nothing to show.',
    scenario: 'noOffers',
    zip: '00002',
  },
  {
    id: 'partner-never-answers',
    title: 'A partner never answers',
    description: 'One insurer is still pending when the 15 s window closes; the rest stay on screen.',
    scenario: 'partnerNeverAnswers',
    zip: '00003',
  },
  {
    id: 'rate-limit-storm',
    title: '429 storm',
    description: 'Polls are rate limited (with and without Retry-After), then recover.',
    scenario: 'rateLimitStorm',
    zip: '00006',
  },
  {
    id: '5xx-then-recovery',
    title: '5xx then recovery',
    description: 'Polls fail with 503 / 500, then the search completes normally.',
    scenario: 'serverErrorThenRecovery',
    zip: '00004',
  },
  {
    id: 'persistent-5xx',
    title: 'Persistent 5xx',
    description: 'Every poll fails: the search ends gracefully when the window closes.',
    scenario: 'persistentServerError',
    zip: '00005',
  },
  {
    id: 'non-active',
    title: 'Non-active offers filtered out',
    description: 'Only offers with status "active" are shown.',
    scenario: 'nonActiveOffers',
    zip: '00007',
  },
  {
    id: 'unmonetized',
    title: 'Unmonetized offers',
    description: 'isMonetized false links to unmonetizedUrl; hostile URLs are dropped.',
    scenario: 'unmonetizedOffers',
    zip: '00010',
  },
  {
    id: 'disclaimers',
    title: 'Disclaimers',
    description: 'Long, empty and repeated partner disclaimers, kept after partners answer.',
    scenario: 'disclaimers',
    zip: '00009',
  },
  {
    id: 'long-copy',
    title: 'Very long copy',
    description: 'Headlines, bullets and names far longer than designers expect.',
    scenario: 'longCopy',
    zip: '00008',
  },
  {
    id: 'form-empty',
    title: 'Form, empty',
    description: 'Nothing known about the visitor: the form asks first.',
    scenario: 'happyPath',
    zip: undefined,
    options: { form: 'auto' },
  },
  {
    id: 'form-prefilled',
    title: 'Form, pre-filled',
    description: 'form="always" with everything the page knows filled in.',
    scenario: 'happyPath',
    zip: '00001',
    options: { form: 'always', search: PREFILLED },
  },
  {
    id: 'dark-theme',
    title: 'Dark theme',
    description: 'The dark preset.',
    scenario: 'happyPath',
    zip: '00001',
    options: { theme: 'dark' },
  },
  {
    id: 'narrow',
    title: 'Narrow mobile width',
    description: 'A 360 px wide column.',
    scenario: 'happyPath',
    zip: '00001',
    width: 360,
  },
  {
    id: 'second-look',
    title: 'Second look',
    description:
      'The same widget polling the second-look marketplace (source="second-look") with a synthetic lead the publisher collected. Against the real BFF, the simulated lenders answer within 12 s.',
    scenario: 'happyPath',
    zip: '00001',
    options: {
      source: 'second-look',
      lead: SAMPLE_LEAD,
      labels: {
        heading: 'Lenders who took a second look',
        progress: '{answered} of {total} lenders answered',
      },
    },
  },
]

export function storyById(id: string | null): Story {
  return STORIES.find((story) => story.id === id) ?? (STORIES[0] as Story)
}
