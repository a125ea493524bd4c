/**
 * @module What a story is: a scenario of the widget, with the msw scenario it runs on, what to expect of
 * the real BFF, the args it starts from and its play script (what a visitor does and sees).
 * The stories themselves are stories.ts and loan-stories.ts.
 */
import type { PlayStep } from './frame/play-step.ts'
import type { ScenarioName } from './scenarios/handlers.ts'
import type { Viewport } from './viewports.ts'
import type { WidgetArgs } from './widget-args.ts'

/** The sidebar's groups, as Storybook groups stories by component. */
export const STORY_GROUPS = ['Offer search', 'Second look', 'Loan application'] as const
export type StoryGroup = (typeof STORY_GROUPS)[number]

export interface Story {
  id: string
  group: StoryGroup
  title: string
  /** What the story is for; the same in both modes. */
  summary: string
  /** msw scenario (a fake BFF in the service worker). */
  scenario: ScenarioName
  /**
   * Real BFF mode: the sandbox scenario whose ZIP the search sends, or what to expect when the story does
   * not run on a sandbox scenario (a second-look lead, a form the visitor fills in).
   */
  bff: { sandbox: string } | { note: string }
  /** The widget's args: the controls start from these, and Reset returns to them. */
  args: WidgetArgs
  viewport?: Viewport
  /**
   * What a visitor does after the widget mounts and what they then see (frame/run-play.ts): at least one
   * expected result (`expect`) of what the story is for, and the steps to reach a state the args cannot open
   * on. msw mode only: the outcome it checks is the msw scenario's script (the real BFF's sandbox words each
   * search afresh), and against the real BFF a loan play would send sandbox leads (`storyPlay`).
   */
  play: readonly PlayStep[]
}
