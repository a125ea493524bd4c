/**
 * @module Retrying inside a budget on fake time (the loop the upstream client runs), and the `Retry-After`
 * value the BFF sends (the arithmetic it reads with is tested in test/contract).
 */
import { describe, expect, it } from 'vitest'
import { type AttemptResult, type RetryPolicy, retryWithinBudget } from '../../src/http/retry.ts'
import { createFakeClock } from '../support/fake-clock.ts'

const POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 300, budgetMs: 1000 }
const failed = (retryAfterMs?: number, retryable = true): AttemptResult<string> => ({
  ok: false,
  error: new Error('failed'),
  retryable,
  retryAfterMs,
})
const done: AttemptResult<string> = { ok: true, value: 'done' }

/**
 * Runs the loop on fake time over scripted results; `attemptMs` is how long each attempt takes on the
 * clock. Returns what it settled with, the waits it asked for and when each attempt started.
 */
async function run(script: AttemptResult<string>[], policy = POLICY, attemptMs = 0) {
  const clock = createFakeClock({ start: 1_000_000, stepping: true })
  const starts: number[] = []
  const outcome = await retryWithinBudget(policy, { timers: clock.timers, random: () => 0.5 }, async (n) => {
    starts.push(clock.now() - 1_000_000)
    expect(n).toBe(starts.length)
    clock.advance(attemptMs)
    const result = script[n - 1]
    if (!result) throw new Error(`attempt ${n} was not scripted`)
    return result
  }).then(
    (value) => ({ value }),
    (error: unknown) => ({ error: (error as Error).message }),
  )
  return { outcome, waits: clock.waits, starts }
}

describe('retryWithinBudget', () => {
  it.each([
    // [case, scripted attempts, policy overrides, ms each attempt takes, settles with, waits, attempt starts]
    ['the first success ends it', [done], {}, 0, { value: 'done' }, [], [0]],
    [
      'backs off with full jitter (half of 100, 200, 300 ms ceilings) until a success',
      [failed(), failed(), failed(), done],
      {},
      0,
      { value: 'done' },
      [50, 100, 150],
      [0, 50, 150, 300],
    ],
    [
      "waits for the other side's Retry-After instead of the backoff",
      [failed(700), done],
      {},
      0,
      { value: 'done' },
      [700],
      [0, 700],
    ],
    [
      'a failure that is not retryable ends it at once',
      [failed(undefined, false)],
      {},
      0,
      { error: 'failed' },
      [],
      [0],
    ],
    [
      'gives up after maxAttempts with the last failure',
      [failed(), failed()],
      { maxAttempts: 2 },
      0,
      { error: 'failed' },
      [50],
      [0, 50],
    ],
    ['starts no wait that would end past the budget', [failed(1001)], {}, 0, { error: 'failed' }, [], [0]],
    [
      'a wait that ends exactly at the budget is taken',
      [failed(1000), done],
      {},
      0,
      { value: 'done' },
      [1000],
      [0, 1000],
    ],
    [
      'counts the time the attempts took against the budget',
      [failed(), failed(), failed()],
      { maxAttempts: 9 },
      400,
      { error: 'failed' },
      // At 400 + 50, then 850 + 100; the third wait would end at 1350 + 150.
      [50, 100],
      [0, 450, 950],
    ],
  ] as const)('%s', async (_case, script, overrides, attemptMs, settles, waits, starts) => {
    const seen = await run([...script], { ...POLICY, ...overrides }, attemptMs)
    expect(seen.outcome).toEqual(settles)
    expect(seen.waits).toEqual(waits)
    expect(seen.starts).toEqual(starts)
  })

  it('an exception thrown by an attempt ends it without a retry', async () => {
    const clock = createFakeClock({ start: 0, stepping: true })
    let attempts = 0
    const loop = retryWithinBudget(POLICY, { timers: clock.timers, random: () => 0.5 }, async () => {
      attempts++
      throw new Error('refused')
    })
    await expect(loop).rejects.toThrow('refused')
    expect(attempts).toBe(1)
    expect(clock.waits).toEqual([])
  })
})
