/**
 * @module Contract checks of one offer on its own, after the reply as a whole passed the contract: any of its
 * text or link fields carrying the lead's PII, or encoded past what the PII finder reads
 * (docs/decisions/0097-pii-in-partner-replies.md); outside sandbox mode, a `click_url` or `logo_src`
 * that is not https to a public host (docs/partner-interface.md#links-and-endpoints); and a bid past the
 * ceiling that keeps every report total finite. A failing offer is dropped whole, counted for the partner's report and described
 * without its content (the description names the field and the kind of PII, never the value). Its
 * `loan_terms` go through `offer-terms.ts`: PII drops the offer, terms that break the contract are dropped
 * alone and said in the reason (docs/decisions/0108-loan-terms.md). Judging yields to the event loop between
 * fields, so a heavy reply never holds every other request of the process (docs/decisions/0114-reply-cpu-budget.md).
 */
import type { PartnerLoanTerms } from '../../contract/loan-terms.ts'
import { type PartnerOffer, partnerUrlProblem } from '../../contract/partner.ts'
import { judgeLoanTerms } from './offer-terms.ts'
import { type PiiFinder, piiProblem } from './pii-finder.ts'

/**
 * A field this long or longer is scanned a step at a time, a turn of the loop before each step
 * (docs/decisions/0120-pii-scan-in-steps.md); a shorter one in one turn. A 1,852-character link held the loop
 * 22-37 ms before V8 compiled the scan; a short field costs a fraction of a millisecond, and turns for its
 * steps would only lengthen the reply's judging.
 */
export const STEP_FROM_CHARS = 512

/** A bid per click above 10 000 USD is a mistake, and sums of such bids could overflow a report. */
export const MAX_BID = 10_000

/** Every partner string of an offer that is stored or shown: each goes through the finder. */
export const CHECKED_FIELDS = [
  'click_url',
  'logo_src',
  'name',
  'display_name',
  'offer_details',
  'product_type',
] as const satisfies ReadonlyArray<keyof PartnerOffer>

export interface OfferRules {
  findPii: PiiFinder
  /** Outside sandbox mode: links and logos must be https to a public host. */
  publicLinksOnly: boolean
  /** Lets the event loop run between two fields' scans; a turn shared by every reply in flight by default. */
  yieldToLoop?: (() => Promise<void>) | undefined
}

/**
 * A turn of the event loop shared by every reply being judged in this process: one field's scan per turn,
 * whichever reply it belongs to. A per-reply `setImmediate` let each reply in flight scan a field in the same
 * turn (Node runs every immediate queued before the turn), so five heavy replies held the loop for five
 * fields' scans at once (74-120 ms measured); taking turns holds it for one (a 1,852-character link: 6-10 ms).
 */
const waitingTurns: Array<() => void> = []
let turning = false
function giveTurn(): void {
  const next = waitingTurns.shift()
  if (next === undefined) {
    turning = false
    return
  }
  next()
  setImmediate(giveTurn)
}
const nextTurn = () =>
  new Promise<void>((resolve) => {
    waitingTurns.push(resolve)
    if (!turning) {
      turning = true
      setImmediate(giveTurn)
    }
  })

interface KeptOffer {
  offer: PartnerOffer
  position: number
  /** Its terms when they passed the contract; what the ledger stores, never the raw `loan_terms`. */
  loanTerms?: PartnerLoanTerms | undefined
}

export interface CheckedOffers {
  kept: KeptOffer[]
  /** Why each dropped offer was dropped, naming the field (`offers[2].click_url carries the lead's SSN`). */
  dropped: string[]
  /** Why the terms of a kept offer were dropped, naming the field and the fix. */
  termsDropped: string[]
  /** Why a part of a kept offer's terms was dropped (an inconsistent example, a payment without one). */
  termsTrimmed: string[]
}

export async function offerProblems(
  offers: readonly PartnerOffer[],
  rules: OfferRules,
): Promise<CheckedOffers> {
  const kept: KeptOffer[] = []
  const dropped: string[] = []
  const termsDropped: string[] = []
  const termsTrimmed: string[] = []
  const yieldToLoop = rules.yieldToLoop ?? nextTurn
  for (const [position, offer] of offers.entries()) {
    const problem = await problemOf(offer, rules, yieldToLoop)
    if (problem !== undefined) {
      dropped.push(`offers[${position}].${problem}`)
      continue
    }
    await yieldToLoop()
    const terms = judgeLoanTerms(offer.loan_terms, position, rules.findPii)
    if (terms.kind === 'pii') dropped.push(terms.problem)
    else {
      if (terms.kind === 'malformed') termsDropped.push(terms.problem)
      if (terms.kind === 'valid' && terms.trimmed) termsTrimmed.push(...terms.trimmed)
      kept.push({ offer, position, ...(terms.kind === 'valid' ? { loanTerms: terms.terms } : {}) })
    }
  }
  return { kept, dropped, termsDropped, termsTrimmed }
}

/**
 * The reply's reason when offers or terms were dropped (`undefined`: the partner's own stands), and whether
 * the reply is then an error: every offer dropped. Names fields and kinds of PII, never a value.
 */
export function droppedReason(
  total: number,
  { kept, dropped, termsDropped, termsTrimmed }: CheckedOffers,
): { reason: string; everyOffer: boolean } | undefined {
  const parts: string[] = []
  if (dropped.length > 0)
    parts.push(
      `${dropped.length} of ${total} offers dropped: ${dropped.join('; ')} (docs/partner-interface.md)`,
    )
  if (termsDropped.length > 0)
    parts.push(
      `loan_terms dropped from ${termsDropped.length} of ${total} offers, each offer kept: ${termsDropped.join('; ')} (docs/partner-interface.md, "Loan terms")`,
    )
  if (termsTrimmed.length > 0)
    parts.push(
      `loan_terms parts dropped, the rest kept: ${termsTrimmed.join('; ')} (docs/partner-interface.md, "Loan terms")`,
    )
  if (parts.length === 0) return undefined
  const everyOffer = kept.length === 0
  return { reason: everyOffer ? `every offer broke the contract: ${parts[0]}` : parts.join('. '), everyOffer }
}

async function problemOf(
  offer: PartnerOffer,
  { findPii, publicLinksOnly }: OfferRules,
  yieldToLoop: () => Promise<void>,
): Promise<string | undefined> {
  if (offer.rate > MAX_BID) return `rate is over the ${MAX_BID} USD ceiling`
  for (const field of CHECKED_FIELDS) {
    const value = offer[field]
    if (value === undefined) continue
    // Each field is bounded by the contract (at most 5 000 characters), and its scan linear in it. A long
    // one is taken a step at a time, a turn of the loop before each step; a short one in one turn.
    await yieldToLoop()
    const steps = findPii.steps(value)
    const stepByStep = value.length >= STEP_FROM_CHARS
    let step = steps.next()
    for (; step.done !== true; step = steps.next()) if (stepByStep) await yieldToLoop()
    if (step.value !== undefined) return piiProblem(field, step.value)
  }
  if (publicLinksOnly) {
    for (const field of ['click_url', 'logo_src'] as const) {
      const value = offer[field]
      const problem = value === undefined ? undefined : partnerUrlProblem(value, { publicOnly: true })
      if (problem !== undefined) return `${field} ${problem}`
    }
  }
  return undefined
}
