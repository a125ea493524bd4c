/**
 * @module The messages between the playground page and its preview frame (same origin, `postMessage`),
 * each side checking what it receives with zod/mini: a message of another shape (a browser extension, a
 * stale frame) is ignored rather than trusted.
 */
import { z } from 'zod/mini'
import { playStepsSchema } from './play-step.ts'

export const FRAME_PATH = '/src/playground/frame/index.html'

const args = z.record(z.string(), z.unknown())
const background = z.enum(['light', 'dark', 'busy'])
const kind = z.enum(['request', 'pixel', 'callback', 'event', 'play', 'info'])

export const toFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('run'),
    runId: z.number(),
    mode: z.enum(['msw', 'bff']),
    scenario: z.string(),
    args,
    background,
    /** The story's play script, run after mounting (msw mode only: stories.ts `storyPlay`). */
    play: z.optional(playStepsSchema),
  }),
  /** The page's listener is attached: the frame answers `ready` (its first `ready` may have gone unheard). */
  z.object({ type: z.literal('hello') }),
  z.object({ type: z.literal('update'), args }),
  z.object({ type: z.literal('background'), background }),
  z.object({ type: z.literal('time'), action: z.enum(['pause', 'play', 'step', 'end']) }),
  /** The toolbar's Outline and Measure toggles (frame/inspect.ts). */
  z.object({ type: z.literal('inspect'), outline: z.boolean(), measure: z.boolean() }),
])
export type ToFrame = z.infer<typeof toFrameSchema>

const violation = z.object({
  id: z.string(),
  impact: z.nullable(z.string()),
  help: z.string(),
  helpUrl: z.string(),
  nodes: z.array(z.object({ target: z.string(), html: z.string(), summary: z.string() })),
})
export type A11yViolation = z.infer<typeof violation>

export const fromFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('log'), runId: z.number(), kind, text: z.string(), at: z.number() }),
  z.object({
    type: z.literal('a11y'),
    runId: z.number(),
    /** The widget's `data-ow-status` when axe ran. */
    state: z.string(),
    violations: z.array(violation),
    passes: z.number(),
  }),
  z.object({ type: z.literal('a11y-error'), runId: z.number(), message: z.string() }),
  z.object({
    type: z.literal('clock'),
    paused: z.boolean(),
    /** Fake ms since the search was created; `null` before (the form, a lead still waiting). */
    searchElapsedMs: z.nullable(z.number()),
  }),
  z.object({ type: z.literal('size'), height: z.number() }),
  /** Where the run's play script stands: `text` is its verdict (the failing step and why) or its progress. */
  z.object({
    type: z.literal('play'),
    runId: z.number(),
    status: z.enum(['running', 'passed', 'failed']),
    text: z.string(),
    /** The step running, or the one that failed (1-based); every step when passed. */
    step: z.number(),
  }),
])
export type FromFrame = z.infer<typeof fromFrameSchema>
export type LogKind = z.infer<typeof kind>
