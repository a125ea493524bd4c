/**
 * @module Nearest-rank latency percentiles.
 */
import { describe, expect, it } from 'vitest'
import { percentile, summarizeLatency } from '../../src/partner-kit/latency.ts'

describe('summarizeLatency', () => {
  it('reports p50, p95 and max by nearest rank', () => {
    const samples = Array.from({ length: 20 }, (_, i) => 20 - i) // 20..1, unsorted
    expect(summarizeLatency(samples)).toEqual({ samples: 20, p50Ms: 10, p95Ms: 19, maxMs: 20 })
  })

  it('is zero with no samples, the sample itself with one', () => {
    expect(summarizeLatency([])).toEqual({ samples: 0, p50Ms: 0, p95Ms: 0, maxMs: 0 })
    expect(summarizeLatency([7])).toEqual({ samples: 1, p50Ms: 7, p95Ms: 7, maxMs: 7 })
    expect(percentile([1, 2, 3, 4], 50)).toBe(2)
  })
})
