/**
 * @module The partners a search has waited on. A partner leaves `pendingResponses` when it answers, but
 * docs/offer-search-api.md rule 5 ("Show a partner's `disclaimer` when it is populated") still applies to it, and the
 * progress count needs everyone who was ever asked. An offer names its carrier, not the partner that quoted
 * it: a partner is known to have quoted the offers that appeared in the rate table in the step it left
 * `pendingResponses` (every partner that left in that step, when several did), which is how a disclaimer
 * follows its partner's offers onto the screen (docs/offer-search-api.md#disclaimers).
 */
import type { PendingResponse } from '../contract/rate-table.ts'

export interface SeenPartner {
  uuid: string
  brandName: string
  disclaimer: string
  /** Offers (uuids, any status) that appeared in the step this partner left `pendingResponses`. */
  offerUuids: readonly string[]
}

export interface Disclaimer {
  partnerUuid: string
  brandName: string
  text: string
  /** The offers it goes with: the widget shows it while one of them is on screen. */
  offerUuids: readonly string[]
}

/** The two rate tables of one step: what was pending and offered before it, what is now. */
interface Step {
  pending: readonly PendingResponse[]
  offerUuids: readonly string[]
}

/**
 * Adds the partners in `now.pending` to `seen`, in first-seen order; a later populated disclaimer wins.
 * With `before` (the previous rate table), the offers new in `now` are credited to every partner that was
 * pending before and is not now.
 */
export function mergeSeenPartners(seen: readonly SeenPartner[], now: Step, before?: Step): SeenPartner[] {
  const out = seen.map((p) => ({ ...p }))
  for (const { partner } of now.pending) {
    const known = out.find((p) => p.uuid === partner.uuid)
    if (!known) {
      out.push({
        uuid: partner.uuid,
        brandName: partner.brandName || partner.name,
        disclaimer: partner.disclaimer,
        offerUuids: [],
      })
    } else if (partner.disclaimer.trim() !== '') {
      known.disclaimer = partner.disclaimer
    }
  }
  if (before) {
    const stillPending = new Set(now.pending.map((p) => p.partner.uuid))
    const left = new Set(before.pending.map((p) => p.partner.uuid).filter((uuid) => !stillPending.has(uuid)))
    const old = new Set(before.offerUuids)
    const fresh = now.offerUuids.filter((uuid) => !old.has(uuid))
    if (fresh.length > 0) {
      for (const partner of out) {
        if (left.has(partner.uuid)) partner.offerUuids = [...partner.offerUuids, ...fresh]
      }
    }
  }
  return out
}

/** Populated disclaimers only, each shown once (by partner, and identical text only once, with the offers of all its partners). */
export function disclaimersToShow(seen: readonly SeenPartner[]): Disclaimer[] {
  const byText = new Map<string, Disclaimer>()
  for (const partner of seen) {
    const text = partner.disclaimer.trim()
    if (text === '') continue
    const same = byText.get(text)
    if (same) same.offerUuids = [...same.offerUuids, ...partner.offerUuids]
    else
      byText.set(text, {
        partnerUuid: partner.uuid,
        brandName: partner.brandName,
        text,
        offerUuids: partner.offerUuids,
      })
  }
  return [...byText.values()]
}

/** The disclaimers that go with an offer on screen (none when nothing is on screen). */
export function disclaimersOnScreen(
  disclaimers: readonly Disclaimer[],
  onScreen: readonly string[],
): Disclaimer[] {
  const shown = new Set(onScreen)
  return disclaimers.filter((disclaimer) => disclaimer.offerUuids.some((uuid) => shown.has(uuid)))
}

/** "3 of 5 insurers answered": everyone ever pending, minus those still pending. */
export function progressOf(
  seen: readonly SeenPartner[],
  pending: readonly PendingResponse[],
): { answered: number; total: number } {
  const stillPending = new Set(pending.map((p) => p.partner.uuid))
  const total = seen.length
  const answered = seen.filter((p) => !stillPending.has(p.uuid)).length
  return { answered, total }
}
