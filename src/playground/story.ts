/**
 * @module What a story is: a scenario of the widget, with the msw scenario it runs on, what to expect of
 * the real BFF, the args it starts from and, for a state only a visitor's actions reach, its play script.
 * The stories themselves are stories.ts and loan-stories.ts.
 */
import type { PlayStep } from './frame/play-step.ts'
import type { ScenarioName } from './scenarios/handlers.ts'
import type { Viewport } from './viewports.ts'
import type { WidgetArgs } from './widget-args.ts'

export interface Story {
  id: string
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
   * What a visitor does after the widget mounts, to reach a state the args cannot open on (frame/run-play.ts).
   * msw mode only: the outcome it leads to is the msw scenario's script, and against the real BFF it would
   * send sandbox leads (`storyPlay`).
   */
  play?: readonly PlayStep[]
}
