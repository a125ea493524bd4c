/**
 * @module The reference partner's whole answer as a pure function, lead in, reply out: validate the lead
 * against docs/partner-interface.md, decide with the rules file, and dress the decision as a reply with complete offers
 * (every conditional field, and `loan_terms` where the rules quote figures).
 * The HTTP server and the marketplace's simulated partners both call it.
 */

import * as z from 'zod/mini'
import { toFieldIssues } from '../contract/common.ts'
import { httpUrlField } from '../contract/http-url.ts'
import { leadSchema, type PartnerOffer, type PartnerReply } from '../contract/partner.ts'
import { deriveLeadId } from './lead-id.ts'
import { decideLead, offerDetails } from './reference-rules.ts'

export interface AnswerOptions {
  /** Per-partner HMAC key of `lead_id`; at least 16 characters. */
  secret: string
  /** The clock the age rule reads; pass it to keep the answer pure. */
  now: Date
  /**
   * The lender's name, carried in every offer's `name` (the company) and `display_name` (what the lead
   * sees): docs/partner-interface.md, "`name`: partner company name; `display_name`: name shown to the lead".
   */
  partnerName?: string
  /** https base of click URLs; the lead id and product type are appended as path segments. */
  clickBaseUrl?: string
  /** https URL of the logo carried in every offer's `logo_src`. */
  logoUrl?: string
  /** Scales every bid, so several simulated partners built on these rules bid differently. */
  bidMultiplier?: number
}

export const ANSWER_DEFAULTS = {
  partnerName: 'Reference Lender',
  clickBaseUrl: 'https://partner.example.com/click',
  logoUrl: 'https://partner.example.com/logo.svg',
  bidMultiplier: 1,
} as const

const httpsUrl = (name: string) => httpUrlField(name, { httpsOnly: true, hostname: true })

export const answerOptionsSchema = z.object({
  secret: z.string().check(z.minLength(16, { error: 'secret must be at least 16 characters' })),
  now: z.date({ error: 'now must be a Date' }),
  partnerName: z.optional(z.string().check(z.minLength(1, { error: 'partnerName must not be empty' }))),
  clickBaseUrl: z.optional(httpsUrl('clickBaseUrl')),
  logoUrl: z.optional(httpsUrl('logoUrl')),
  bidMultiplier: z.optional(
    z.number().check(z.gte(0, { error: 'bidMultiplier must be a number of at least 0' })),
  ),
})

/** docs/partner-interface.md caps nothing, our contract caps `reason` at 2000 characters. */
const MAX_REASON = 2000

function errorReply(leadId: string, reason: string): PartnerReply {
  return { status: 'error', lead_id: leadId, reason: reason.slice(0, MAX_REASON) }
}

/** The reply for a body that is not JSON at all (the server calls this; `raw` is the body text). */
export function answerUnparseable(raw: string, options: AnswerOptions): PartnerReply {
  return errorReply(
    deriveLeadId(raw, options.secret),
    'the body must be a JSON lead object (docs/partner-interface.md)',
  )
}

/**
 * The reply to one lead. docs/partner-interface.md: a failure is `status: "error"` with a `reason` describing the cause
 * ("for example a missing required input"), so a lead that breaks the contract gets one naming each field.
 */
export function answerLead(input: unknown, options: AnswerOptions): PartnerReply {
  const leadId = deriveLeadId(input, options.secret)
  const parsed = leadSchema.safeParse(input)
  if (!parsed.success) {
    const issues = toFieldIssues(parsed.error).map((issue) => issue.reason)
    return errorReply(leadId, `invalid lead: ${issues.join('; ')}`)
  }
  const decision = decideLead(parsed.data, options.now)
  if (decision.status === 'rejected') return { status: 'rejected', lead_id: leadId, reason: decision.reason }

  const base = (options.clickBaseUrl ?? ANSWER_DEFAULTS.clickBaseUrl).replace(/\/+$/, '')
  const multiplier = options.bidMultiplier ?? ANSWER_DEFAULTS.bidMultiplier
  const offers: PartnerOffer[] = decision.offers.map(({ product_type, bid, loan_terms }) => ({
    rate: Math.round(bid * multiplier * 100) / 100,
    // The lead id is the only lead-derived part of the URL: never PII in a link a browser logs.
    click_url: `${base}/${encodeURIComponent(leadId)}/${product_type}`,
    // Every conditional field, always: the reply may carry several product types. The product is named by
    // `product_type`; the name fields name the lender.
    name: options.partnerName ?? ANSWER_DEFAULTS.partnerName,
    display_name: options.partnerName ?? ANSWER_DEFAULTS.partnerName,
    offer_details: offerDetails(product_type, parsed.data.loanInformation.loanAmount),
    product_type,
    logo_src: options.logoUrl ?? ANSWER_DEFAULTS.logoUrl,
    // Our extension (docs/partner-interface.md, "Loan terms"): the figures, for products with an APR.
    ...(loan_terms === undefined ? {} : { loan_terms }),
  }))
  return { status: 'approved', lead_id: leadId, offers }
}
