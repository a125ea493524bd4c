/**
 * @module Wire shapes of consent in the second look (docs/second-look.md, "Consent and its proof"): the
 * operator's FCRA and TCPA texts as the BFF serves them to the loan application, and the `consent` extension a
 * lead body may carry (the page it was given on, a TrustedForm or Jornaya LeadiD certificate). The texts
 * themselves travel in the lead's `legalInformation` as docs/partner-interface.md spells them; the BFF accepts
 * only texts it serves, so a browser cannot substitute its own.
 */
import * as z from 'zod/mini'
import { text } from './common.ts'

/** One consent text as the operator wrote it: `id` is its content hash, so an edited text is a new id. */
const consentTextSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  text: z.string().check(z.minLength(1)),
})
export type ConsentText = z.infer<typeof consentTextSchema>

/**
 * `GET /api/second-look/consent`: the texts the application shows beside its boxes. `version` is the
 * operator's name for this set (shown in the consent record); `tcpa` is absent when the operator asks for
 * no TCPA consent.
 */
export const consentTextsSchema = z.looseObject({
  version: z.string().check(z.minLength(1)),
  fcra: consentTextSchema,
  tcpa: z.optional(consentTextSchema),
})
export type ConsentTexts = z.infer<typeof consentTextsSchema>

/** TrustedForm certificate URLs are https on trustedform.com hosts (ActiveProspect's documented form). */
const TRUSTED_FORM_CERT = /^https:\/\/cert\.trustedform\.com\/[0-9a-f]{40}$/i
/** A Jornaya LeadiD token is a UUID in upper case hex (either case accepted). */
const LEADID_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The lead body's optional `consent` object: where consent was given, and a third-party certificate of the
 * session when the publisher's page runs one. Never sent to partners as is: the certificate is forwarded
 * as the documented `consentCertificate` extension (docs/partner-interface.md); the page URL stays in the
 * consent record.
 */
export const consentContextSchema = z.strictObject({
  /** The page the application was on: stored without its query string or fragment (they may carry PII). */
  pageUrl: z.optional(
    text('consent.pageUrl', 2048).check(
      z.refine((value) => /^https?:\/\//i.test(value), {
        error: 'consent.pageUrl must be the absolute http(s) URL of the page the application was on',
      }),
    ),
  ),
  trustedFormCertUrl: z.optional(
    z.string().check(
      z.regex(TRUSTED_FORM_CERT, {
        error:
          'consent.trustedFormCertUrl must be a TrustedForm certificate URL (https://cert.trustedform.com/<40 hex>)',
      }),
    ),
  ),
  leadiDToken: z.optional(
    z
      .string()
      .check(z.regex(LEADID_TOKEN, { error: 'consent.leadiDToken must be a Jornaya LeadiD token (a UUID)' })),
  ),
})
export type ConsentContext = z.infer<typeof consentContextSchema>

/**
 * The `secondLook.duplicate` extension of a rate table answered for an applicant who already applied within
 * the duplicate window: the first application's time. The widget says so above that lead's offers.
 */
export const duplicateOfSchema = z.looseObject({
  firstAppliedAt: z.string(),
})
