/** @module The calls the upstream client makes, and the retry policy of each. */
import type { RetryPolicy } from '../../http/retry.ts'

export type UpstreamOperation = 'issuers' | 'create' | 'poll' | 'ready'

/**
 * Polls are not retried here: the widget polls again within a second and the coalescer keeps upstream
 * polls at least a second apart, which an inner retry would break. Readiness probes make one attempt.
 */
const DEFAULT_RETRY: Record<UpstreamOperation, RetryPolicy> = {
  issuers: { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 2000, budgetMs: 4000 },
  create: { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 2000, budgetMs: 4000 },
  poll: { maxAttempts: 1, baseDelayMs: 1000, maxDelayMs: 1000, budgetMs: 0 },
  ready: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, budgetMs: 0 },
}

/** The default policies with the configured overrides laid over them, field by field. */
export function retryPolicies(
  overrides: Partial<Record<UpstreamOperation, Partial<RetryPolicy>>> | undefined,
): Record<UpstreamOperation, RetryPolicy> {
  return Object.fromEntries(
    (Object.keys(DEFAULT_RETRY) as UpstreamOperation[]).map((op) => [
      op,
      { ...DEFAULT_RETRY[op], ...overrides?.[op] },
    ]),
  ) as Record<UpstreamOperation, RetryPolicy>
}
