/**
 * @module What `GET /api/second-look/consent` serves beside the consent texts (docs/second-look.md, "Consent
 * and its proof"): the label the application's submit button must carry (the texts name it), the operator's
 * notices (the no-decision notice and the soft-pull line) and links (Terms of Service, Privacy Policy, E-SIGN
 * consent). A notice or link the operator left out is absent. Kept apart from consent.ts, which the loan
 * application's chunk imports: `consentTextsSchema` is loose and passes these through until the widget reads
 * them with `servedConsentTextsSchema`.
 */
import * as z from 'zod/mini'
import { type ConsentTexts, consentTextsSchema } from './consent.ts'

/** A link shown above the submit: its label and an absolute https URL. */
const operatorLinkSchema = z.looseObject({
  label: z.string().check(z.minLength(1)),
  url: z.string().check(z.regex(/^https:\/\//, { error: 'links[].url must be an absolute https URL' })),
})
export const servedConsentTextsSchema = z.extend(consentTextsSchema, {
  /** The submit button's label, word for word as the texts name it. */
  submitLabel: z.string().check(z.minLength(1)),
  notices: z.looseObject({
    /** "If you did not receive an offer from a lending partner, no credit decision has been made…" */
    noDecision: z.optional(z.string()),
    /** "Checking your rate won't affect your credit score." */
    softPull: z.optional(z.string()),
  }),
  links: z.looseObject({
    terms: z.optional(operatorLinkSchema),
    privacy: z.optional(operatorLinkSchema),
    esign: z.optional(operatorLinkSchema),
  }),
})

/** A link shown above the submit (`links.terms`, `links.privacy`, `links.esign`). */
export interface OperatorLink {
  label: string
  /** An absolute https URL. */
  url: string
}

/** What `GET /api/second-look/consent` serves: the texts, the submit's label, the notices and the links. */
export interface ServedConsentTexts extends ConsentTexts {
  /** The submit button's label, word for word as the texts name it. */
  submitLabel: string
  notices: { noDecision?: string | undefined; softPull?: string | undefined }
  links: {
    terms?: OperatorLink | undefined
    privacy?: OperatorLink | undefined
    esign?: OperatorLink | undefined
  }
}

// The schema parses what the interface says (a compile-time check, nothing at run time).
type Parsed = z.infer<typeof servedConsentTextsSchema>
const _parsesToServed: (parsed: Parsed) => ServedConsentTexts = (parsed) => parsed
