/**
 * @module The legal but heavy partner reply of issue 43 ("No reply stalls the loop"): 50 offers, about
 * 240 KB, under the 256 KB reply cap, with long offer text and click URLs carrying 60 query parameters of
 * tracking values (base64url-like tokens, nested redirect URLs, amounts and dates). None of it is the PII of
 * `makeKnownLead()`, so the PII finder must drop nothing. Deterministic: the same arguments give the same
 * bytes, so a test or a bench can count the scan's work on it and on one twice its size.
 */
import type { PartnerOffer } from '../../../src/contract/partner.ts'

export interface HostileReplyOptions {
  /** Offers in the reply: 50 by default, the contract's most. */
  offers?: number
  /** Query parameters of each `click_url`: 60 by default. */
  params?: number
  /** Sentences of `offer_details`: 24 by default (about 2.3 KB). */
  sentences?: number
}

const SENTENCES = [
  'Rates from 5.99% to 35.99% APR; borrow $1,000 to $35,000 over 24 to 60 months, with no prepayment fee.',
  'Funds as soon as the next business day after approval (https://lender.example.com/funding?speed=next-day&src=widget).',
  'Checking your rate will not affect your credit score: we use a soft inquiry, then a hard one when you accept.',
  'Example: a $10,000 loan over 36 months at 12.5% APR costs $334.54 a month, $12,043.44 in all.',
  'Terms at https://lender.example.com/legal/terms/v2026-11?lang=en&state=CA&rev=17 and our privacy notice.',
  'Serving customers since 1983 in 48 states; NMLS #1234567; call 1-800-555-0199, 7 days a week.',
]

/** A small deterministic generator (mulberry32): the same reply every run, no PII by construction. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

const TOKEN_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz_-'

/** The value of tracking parameter `i`: a click id, a nested redirect, an amount, a date, a campaign. */
function paramValue(i: number, next: () => number): string {
  const token = (length: number) =>
    Array.from({ length }, () => TOKEN_CHARS[Math.floor(next() * TOKEN_CHARS.length)]).join('')
  switch (i % 5) {
    case 0:
      return token(24)
    case 1:
      return encodeURIComponent(`https://track.example.net/r/${token(10)}?c=${i}&m=widget`)
    case 2:
      return (1000 + Math.floor(next() * 34_000)).toString()
    case 3:
      return `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`
    default:
      return `campaign-${token(6)}-q${1 + (i % 4)}`
  }
}

function hostileOffer(position: number, options: HostileReplyOptions = {}): PartnerOffer {
  const { params = 60, sentences = 24 } = options
  const next = random(position + 1)
  const query = Array.from({ length: params }, (_, i) => `t${i}=${paramValue(i, next)}`).join('&')
  const details = Array.from({ length: sentences }, (_, i) => SENTENCES[(i + position) % SENTENCES.length])
  return {
    rate: 10 + position / 10,
    click_url: `https://lender.example.com/apply/offer-${position}/go?${query}`,
    name: `Personal loan ${position}`,
    display_name: `Lender ${position}: personal loans for debt consolidation and home improvement`,
    offer_details: details.join(' '),
    product_type: 'installment_loan',
    logo_src: `https://cdn.lender.example.com/logos/${position}.png?w=240&h=80&v=2026-11`,
  }
}

/** The reply body a partner sends: `{ status: 'approved', lead_id, offers }`. */
export function hostileReply(options: HostileReplyOptions = {}) {
  const { offers = 50 } = options
  return {
    status: 'approved' as const,
    lead_id: 'hostile-0001',
    offers: Array.from({ length: offers }, (_, i) => hostileOffer(i, options)),
  }
}
