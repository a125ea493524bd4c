/**
 * @module The rate table's `secondLook` progress (docs/second-look.md#progress-while-the-visitor-waits):
 * how many partners the lead can still go to across the tiers that can still run, how many of them are no
 * longer awaited, and when the last window that can still run closes. Pure: the snapshot, the registry and
 * the windows in, the progress out.
 */
import type { RateTable } from '../../contract/rate-table.ts'
import type { RequestProgress, SearchSnapshot } from '../../ledger/index.ts'
import { partnerWindowMs } from '../fan-out/run-lead.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'

export type SecondLookProgress = NonNullable<RateTable['secondLook']>

export interface ProgressWindows {
  /** Cap on each partner's window (the seed's 12 s). */
  windowMs: number
  /** First look closes at this after its requests were sent, when partners are still out. */
  firstLookDeadlineMs: number
}

/**
 * `over` is true for a lead that is no longer running (settled, failed, or orphaned): nobody is awaited any
 * more, so every partner asked counts as answered and `answerBy` is when it ended.
 */
export function secondLookProgress(
  snapshot: SearchSnapshot,
  registry: ReadonlyMap<string, PartnerRegistryEntry>,
  windows: ProgressWindows,
  over: boolean,
): SecondLookProgress {
  const { lead, requests } = snapshot
  if (over) {
    return {
      partnersAsked: requests.length,
      partnersAnswered: requests.length,
      answerBy: (lead.completedAt ?? lead.deadlineAt).toISOString(),
    }
  }
  const answered = requests.filter((r) => r.status !== 'pending').length
  const windowOf = (partnerIds: readonly string[]) =>
    Math.max(
      0,
      ...partnerIds.map((id) => {
        const entry = registry.get(id)
        return entry ? partnerWindowMs(entry, windows.windowMs) : 0
      }),
    )
  const first = requests.filter((r) => r.tier === 'first')
  const second = requests.filter((r) => r.tier === 'second')
  if (first.length > 0 && second.length === 0) {
    // Still in first look: second look can still run unless a first-look partner has already offered.
    const offered = first.some((r) => r.status === 'approved' && r.offerCount > 0)
    const planned = offered
      ? []
      : [...registry.values()].filter((p) => p.enabled && p.tier === 'second').map((p) => p.id)
    const firstClose =
      startOf(first) + Math.min(windows.firstLookDeadlineMs, windowOf(first.map((r) => r.partnerId)))
    return {
      partnersAsked: first.length + planned.length,
      partnersAnswered: answered,
      answerBy: new Date(firstClose + windowOf(planned)).toISOString(),
    }
  }
  // Second look running (or the only tier): each partner's whole window from when it was sent the lead.
  if (second.length === 0) {
    // No request at all on a pending lead (not written by intake, which settles such a lead at once).
    return { partnersAsked: 0, partnersAnswered: 0, answerBy: lead.deadlineAt.toISOString() }
  }
  return {
    partnersAsked: requests.length,
    partnersAnswered: answered,
    answerBy: new Date(startOf(second) + windowOf(second.map((r) => r.partnerId))).toISOString(),
  }
}

function startOf(requests: readonly RequestProgress[]): number {
  return Math.min(...requests.map((r) => r.sentAt.getTime()))
}
