/**
 * @module A story's play script: the steps a visitor takes to reach a state the story cannot open on (an
 * error the server answers, a box left unchecked), and what they then see, run in the preview frame after
 * the widget mounts (run-play.ts). Plain data, so it crosses `postMessage` and is checked there with zod/mini
 * like every message. Each step names what a visitor sees (a label, a button's text, a sentence), never a
 * selector, so a script reads like the steps of a bug report, expected result included, and survives markup
 * changes. New kinds of step go in this union.
 */
import { z } from 'zod/mini'

const text = z.string().check(z.minLength(1))

/**
 * The expected result: the widget shows `expect` (the text a visitor sees or a screen reader reads), or with
 * `absent` does not; with `count`, exactly that many times (three "View rate" links); with `value`, the
 * field labelled `expect` holds that value (a pre-filled ZIP code). Checked again until it holds or the
 * step's time is up, as Testing Library's `findBy` does: a widget settles over a few renders.
 */
const expectSchema = z.union([
  z.strictObject({ expect: text, absent: z.optional(z.literal(true)) }),
  z.strictObject({ expect: text, count: z.int().check(z.nonnegative()) }),
  z.strictObject({ expect: text, value: z.string() }),
])
export type ExpectStep = z.infer<typeof expectSchema>

const playStepSchema = z.union([
  /** Types `value` into the text field labelled `fill` (its value replaced, as select-all and typing does). */
  z.strictObject({ fill: text, value: z.string() }),
  /** Picks the option of the select labelled `select` whose value or text is `value`. */
  z.strictObject({ select: text, value: text }),
  /** Checks the checkbox or radio labelled `check` (nothing when it is checked already). */
  z.strictObject({ check: text }),
  /** Clicks the button or link whose text (or accessible name) is `click`. */
  z.strictObject({ click: text }),
  /** Waits until the widget shows `waitFor`, up to `timeoutMs` of real time. */
  z.strictObject({ waitFor: text, timeoutMs: z.optional(z.number().check(z.positive())) }),
  /**
   * Waits until `waitSeconds` of the widget's time have passed: on the frame's clock (msw mode, where plays
   * run), which follows real time, holds while paused, and jumps to the end of the 15 s window when asked.
   */
  z.strictObject({ waitSeconds: z.number().check(z.positive(), z.lte(120)) }),
  expectSchema,
])
export type PlayStep = z.infer<typeof playStepSchema>

export const playStepsSchema = z.array(playStepSchema)

/** Whether a step is an expected result (a play's verdict is worth something only with one). */
export const isExpectation = (step: PlayStep): step is ExpectStep => 'expect' in step

/** Long labels (a consent text) cut in the log and in the verdict. */
const MAX_SHOWN = 60

const quote = (value: string) =>
  `"${value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN - 1).trimEnd()}…` : value}"`

/** The step as the event log shows it; `masked`: the field hides what is typed (the SSN), so the log does. */
export function describeStep(step: PlayStep, masked = false): string {
  if ('fill' in step) {
    const value = masked ? '•'.repeat(step.value.length) : quote(step.value)
    return `fill ${quote(step.fill)} with ${value}`
  }
  if ('select' in step) return `select ${quote(step.value)} in ${quote(step.select)}`
  if ('check' in step) return `check ${quote(step.check)}`
  if ('click' in step) return `click ${quote(step.click)}`
  if ('waitFor' in step) return `wait for ${quote(step.waitFor)}`
  if ('waitSeconds' in step) return `wait ${step.waitSeconds} s of widget time`
  if ('count' in step)
    return `expect ${quote(step.expect)} shown ${step.count} time${step.count === 1 ? '' : 's'}`
  if ('value' in step) return `expect ${quote(step.expect)} to hold ${quote(step.value)}`
  return step.absent ? `expect no ${quote(step.expect)}` : `expect ${quote(step.expect)}`
}
