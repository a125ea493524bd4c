/**
 * @module Wire shapes of the second-look marketplace partner interface (docs/partner-interface.md): the
 * partner's reply with its offers, with every conditional rule. The lead sent to a partner is lead.ts,
 * named here too for the modules that read both.
 */
import * as z from 'zod/mini'
import { nonEmptyText, text } from './common.ts'
import { hostReach } from './network-host.ts'

export {
  type Lead,
  type LeadInput,
  leadInputSchema,
  leadSchema,
  leadSessionInformationSchema,
  US_STATES,
  type UsState,
} from './lead.ts'

/** The fields docs/partner-interface.md marks "conditional": required when a partner returns several product types. */
export const CONDITIONAL_OFFER_FIELDS = [
  'name',
  'display_name',
  'offer_details',
  'product_type',
  'logo_src',
] as const

/**
 * A partner URL: a link a browser will follow or load (`click_url`, `logo_src`) or a partner's endpoint.
 * The contract alone (any mode): https, or http to a loopback host only; never `javascript:`, `data:` or a
 * relative path. `publicOnly` (outside sandbox mode): https to a public host only, since every visitor's
 * browser would otherwise be sent to its own machine or network (a printer's admin page, a router). The
 * host is judged by `network-host.ts`, the one predicate. Undefined when the URL is acceptable.
 */
export function partnerUrlProblem(value: string, options: { publicOnly?: boolean } = {}): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute https URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an absolute https URL'
  const reach = hostReach(url.hostname)
  if (options.publicOnly) {
    if (reach !== 'public') {
      return `must be https to a public host outside sandbox mode (this host is ${
        reach === 'loopback' ? 'the machine itself' : 'on a private or reserved network'
      })`
    }
    return url.protocol === 'https:' ? undefined : 'must be https outside sandbox mode'
  }
  if (url.protocol === 'https:') return undefined
  return reach === 'loopback' ? undefined : 'must be https (http is accepted only to a loopback host)'
}

const partnerUrl = (field: string) =>
  z.string({ error: `${field} must be a string` }).check(
    z.maxLength(4096, { error: `${field} must be at most 4096 characters` }),
    z.refine((value) => partnerUrlProblem(value) === undefined, {
      error: `${field} must be an absolute https URL (http only to a loopback host)`,
    }),
  )

const partnerOfferSchema = z.looseObject({
  rate: z
    .number({ error: 'offers[].rate must be a number' })
    .check(z.gte(0, { error: 'offers[].rate must not be negative' })),
  click_url: partnerUrl('offers[].click_url'),
  name: z.optional(text('offers[].name', 200)),
  display_name: z.optional(text('offers[].display_name', 200)),
  offer_details: z.optional(text('offers[].offer_details', 5000)),
  product_type: z.optional(nonEmptyText('offers[].product_type', 100)),
  logo_src: z.optional(partnerUrl('offers[].logo_src')),
  /**
   * Our extension (docs/partner-interface.md, "Loan terms"): unknown here, so terms a partner got wrong never
   * cost it the whole reply; the marketplace parses them with `partnerLoanTermsSchema` offer by offer, and
   * drops only the terms when they break it.
   */
  loan_terms: z.optional(z.unknown()),
})
export type PartnerOffer = z.infer<typeof partnerOfferSchema>

const leadId = nonEmptyText('lead_id', 200)

const approvedReplySchema = z.looseObject({
  status: z.literal('approved'),
  lead_id: leadId,
  reason: z.optional(z.string()),
  offers: z.array(partnerOfferSchema, { error: 'offers is required with status "approved"' }).check(
    z.minLength(1, {
      error: 'offers must hold at least one offer with status "approved"; use "rejected" otherwise',
    }),
    z.maxLength(50, { error: 'offers takes at most 50 offers per reply' }),
    z.superRefine((offers, ctx) => {
      for (const issue of conditionalFieldIssues(offers))
        ctx.issues.push({ code: 'custom', input: offers, ...issue })
    }),
  ),
})

const rejectedReplySchema = z.looseObject({
  status: z.literal('rejected'),
  lead_id: leadId,
  reason: nonEmptyText('reason', 2000),
  offers: z.optional(z.array(z.unknown())),
})

const errorReplySchema = z.looseObject({
  status: z.literal('error'),
  lead_id: leadId,
  reason: nonEmptyText('reason', 2000),
  offers: z.optional(z.array(z.unknown())),
})

export const partnerReplySchema = z.discriminatedUnion(
  'status',
  [approvedReplySchema, rejectedReplySchema, errorReplySchema],
  {
    error: 'status must be "approved", "rejected" or "error"',
  },
)
export type PartnerReply = z.infer<typeof partnerReplySchema>

/**
 * docs/partner-interface.md: conditional fields are "required when the partner returns several types of offers". A reply
 * with several offers must label each with `product_type`; when those types differ, every conditional field
 * is required on every offer (docs/partner-interface.md#conditional-offer-fields).
 */
export function conditionalFieldIssues(
  offers: ReadonlyArray<Partial<Record<(typeof CONDITIONAL_OFFER_FIELDS)[number], unknown>>>,
): Array<{ path: (string | number)[]; message: string }> {
  if (offers.length < 2) return []
  const issues: Array<{ path: (string | number)[]; message: string }> = []
  const types = new Set(offers.map((o) => o.product_type))
  const required = types.size > 1 ? CONDITIONAL_OFFER_FIELDS : (['product_type'] as const)
  offers.forEach((offer, index) => {
    for (const field of required) {
      if (offer[field] === undefined || offer[field] === '') {
        issues.push({
          path: [index, field],
          message: `offers.${index}.${field} is required when a reply carries several ${types.size > 1 ? 'product types' : 'offers'}`,
        })
      }
    }
  })
  return issues
}
