/**
 * @module Latency summary of a checker run: p50, p95 and max by the nearest-rank method, which needs no
 * interpolation and always names a latency that was actually measured.
 */

export interface LatencySummary {
  samples: number
  p50Ms: number
  p95Ms: number
  maxMs: number
}

/** Nearest-rank percentile of ascending `sorted` (`p` in 0..100); 0 for no samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0
}

export function summarizeLatency(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b)
  return {
    samples: sorted.length,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    maxMs: sorted.at(-1) ?? 0,
  }
}
