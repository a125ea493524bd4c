/**
 * @module Runs a story's play script (play-step.ts) in the widget's shadow root, step by step, as a visitor
 * would act, and gives the verdict: passed, or the step that failed and why. Every step waits (on real time:
 * the frame's clock may be paused) until what it names is there, as a visitor waits for a page, so a script
 * needs no sleeps: the application's chunk loading, the consent texts arriving, an answer of the BFF. An
 * expected result (play-expect.ts) is looked at again until it holds, and its failure says what was seen
 * instead. A small runner on purpose: a step debugger can grow from the step union and this loop.
 */
import { check, click, fill, select } from './play-events.ts'
import { checkExpectation } from './play-expect.ts'
import { describeStep, type PlayStep } from './play-step.ts'
import { type Found, findClickable, findControl, normalize } from './play-target.ts'

export interface PlayOptions {
  /** A pause of real time (the frame's `setTimeout` runs on its fake clock). */
  wait: (ms: number) => Promise<void>
  /** Real milliseconds, for the steps' deadlines; default `performance.now()`. */
  now?: () => number
  /** Each step as it starts, and the verdict: the event log's `play` lines. */
  log: (text: string) => void
  /** False once a newer run replaced this one: the play stops without a verdict. */
  current?: () => boolean
  /** How long a step waits for what it names (real ms); `waitFor` may set its own. */
  stepTimeoutMs?: number
  /**
   * Resolves once `ms` of the widget's time have passed (a `waitSeconds` step): on the frame's clock, which
   * runs with real time, holds while paused and jumps with the time control. Without it the step waits that
   * long in real time.
   */
  letTimePass?: (ms: number) => Promise<void>
  /** Each step as it starts (1-based), for the page's list of steps. */
  onStep?: (number: number) => void
}

export type PlayResult =
  | { status: 'passed'; steps: number }
  | { status: 'failed'; step: number; steps: number; message: string }
  | { status: 'stopped' }

const STEP_TIMEOUT_MS = 5_000
/** How often a waiting step looks again (real ms). */
const RETRY_MS = 50
/**
 * A visitor's pace after an action (real ms): the page commits what the action changed before the next step
 * looks, or a second "Continue" would press the same step's button again.
 */
const PACE_MS = 50

export async function runPlay(
  root: ParentNode,
  steps: readonly PlayStep[],
  options: PlayOptions,
): Promise<PlayResult> {
  const current = options.current ?? (() => true)
  for (const [index, step] of steps.entries()) {
    const number = index + 1
    options.log(`play: ${number}/${steps.length} ${describeStep(step, isMasked(root, step))}`)
    options.onStep?.(number)
    const outcome = await runStep(root, step, options)
    if (outcome === undefined && acts(step)) await options.wait(PACE_MS)
    if (!current()) return { status: 'stopped' }
    if (outcome !== undefined) {
      const message = `step ${number} of ${steps.length} (${describeStep(step)}) failed: ${outcome}`
      options.log(`play: ${message}`)
      return { status: 'failed', step: number, steps: steps.length, message }
    }
  }
  options.log(`play: passed, ${steps.length} step${steps.length === 1 ? '' : 's'}`)
  return { status: 'passed', steps: steps.length }
}

/** A step a visitor acts in (the page then takes a moment); waiting and looking change nothing. */
const acts = (step: PlayStep) => !('waitFor' in step || 'waitSeconds' in step || 'expect' in step)

/** A password field's value stays out of the log (the SSN is one), as the widget keeps it out of view. */
function isMasked(root: ParentNode, step: PlayStep): boolean {
  if (!('fill' in step)) return false
  const found = findControl(root, step.fill)
  return 'element' in found && (found.element as HTMLInputElement).type === 'password'
}

/** One step: its target waited for, then acted on; the reason it failed, or undefined. */
async function runStep(root: ParentNode, step: PlayStep, options: PlayOptions): Promise<string | undefined> {
  const timeout = ('waitFor' in step ? step.timeoutMs : undefined) ?? options.stepTimeoutMs ?? STEP_TIMEOUT_MS
  if ('waitFor' in step) {
    const wanted = normalize(step.waitFor)
    const shown = await until(options, timeout, () =>
      normalize(root.textContent).includes(wanted) ? { element: true } : { missing: 'it is not shown' },
    )
    return 'missing' in shown ? shown.missing : undefined
  }
  if ('waitSeconds' in step) {
    const ms = step.waitSeconds * 1000
    await (options.letTimePass ? options.letTimePass(ms) : options.wait(ms))
    return undefined
  }
  if ('expect' in step) {
    const held = await until(options, timeout, () => checkExpectation(root, step))
    return 'missing' in held ? held.missing : undefined
  }
  if ('click' in step) {
    const found = await until(options, timeout, () => findClickable(root, step.click))
    return 'missing' in found ? found.missing : click(found.element)
  }
  const name = 'fill' in step ? step.fill : 'select' in step ? step.select : step.check
  const found = await until(options, timeout, () => findControl(root, name))
  if ('missing' in found) return found.missing
  if ('fill' in step) return fill(found.element, step.value)
  if ('select' in step) return select(found.element, step.value)
  return check(found.element)
}

/**
 * Looks until `find` finds, or `timeoutMs` of real time passed: then the last miss, with the time waited.
 * Several matches end the step at once: a script that names an element ambiguously is wrong, not early.
 */
async function until<T>(options: PlayOptions, timeoutMs: number, find: () => Found<T>): Promise<Found<T>> {
  const now = options.now ?? (() => performance.now())
  const deadline = now() + timeoutMs
  for (;;) {
    const found = find()
    if ('element' in found || found.ambiguous) return found
    if (now() >= deadline || options.current?.() === false) {
      return { missing: `${found.missing} after ${timeoutMs / 1000} s` }
    }
    await options.wait(RETRY_MS)
  }
}
