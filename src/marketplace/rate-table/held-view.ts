/**
 * @module A held application's search as its sender sees it (`intake/hold-application.ts`): its partners
 * awaited until its answer time, then a lead that ended with every partner declining and no offer. Any
 * other search passes unchanged.
 */
import type { SearchSnapshot } from '../../ledger/index.ts'

export function heldView(snapshot: SearchSnapshot, now: number): SearchSnapshot {
  const { lead } = snapshot
  if (lead.status !== 'held') return snapshot
  if (now < lead.deadlineAt.getTime()) return { ...snapshot, lead: { ...lead, status: 'pending' } }
  return {
    lead: { ...lead, status: 'complete', completedAt: lead.deadlineAt },
    pending: [],
    requests: snapshot.requests.map((r) => ({ ...r, status: 'rejected' as const })),
    displayed: [],
  }
}
