/**
 * @module The partners a search has waited on. A partner leaves `pendingResponses` when it answers, but
 * docs/offer-search-api.md rule 5 ("Show a partner's `disclaimer` when it is populated") still applies to it, and the
 * progress count needs everyone who was ever asked.
 */
import type { PendingResponse } from '../contract/rate-table.ts'

export interface SeenPartner {
  uuid: string
  brandName: string
  disclaimer: string
}

export interface Disclaimer {
  partnerUuid: string
  brandName: string
  text: string
}

/** Adds the partners in `pending` to `seen`, in first-seen order; a later populated disclaimer wins. */
export function mergeSeenPartners(
  seen: readonly SeenPartner[],
  pending: readonly PendingResponse[],
): SeenPartner[] {
  const out = seen.map((p) => ({ ...p }))
  for (const { partner } of pending) {
    const known = out.find((p) => p.uuid === partner.uuid)
    if (!known) {
      out.push({
        uuid: partner.uuid,
        brandName: partner.brandName || partner.name,
        disclaimer: partner.disclaimer,
      })
    } else if (partner.disclaimer.trim() !== '') {
      known.disclaimer = partner.disclaimer
    }
  }
  return out
}

/** Populated disclaimers only, each shown once (by partner, and identical text only once). */
export function disclaimersToShow(seen: readonly SeenPartner[]): Disclaimer[] {
  const texts = new Set<string>()
  const out: Disclaimer[] = []
  for (const partner of seen) {
    const text = partner.disclaimer.trim()
    if (text === '' || texts.has(text)) continue
    texts.add(text)
    out.push({ partnerUuid: partner.uuid, brandName: partner.brandName, text })
  }
  return out
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
