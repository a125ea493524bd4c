/**
 * @module What the fake BFF checks of a second-look lead before it takes it, in the real BFF's order: the
 * lead's fields by `leadInputSchema`, its `consent` extension by `consentContextSchema`, then its consent
 * texts against the ones it serves, word for word (a browser cannot substitute its own). Each problem is a
 * field issue with the real BFF's reason, so the application marks the same field either way.
 */
import { BFF_ROUTES } from '../../contract/bff.ts'
import { type FieldIssue, toFieldIssues } from '../../contract/common.ts'
import { type ConsentTexts, consentContextSchema } from '../../contract/consent.ts'
import { type LeadInput, leadInputSchema } from '../../contract/partner.ts'

export type LeadCheck = { ok: true; lead: LeadInput } | { ok: false; message: string; errors: FieldIssue[] }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export function checkLead(body: unknown, texts: ConsentTexts): LeadCheck {
  // The extension is judged by its own schema, whether or not leadInputSchema lists it too.
  const { consent, ...fields } = isRecord(body) ? body : { consent: undefined }
  const parsed = leadInputSchema.safeParse(isRecord(body) ? fields : body)
  const extension = consentContextSchema.safeParse(consent ?? {})
  if (!parsed.success || !extension.success) {
    const errors = [
      ...(parsed.success ? [] : toFieldIssues(parsed.error)),
      ...(extension.success
        ? []
        : toFieldIssues(extension.error).map((e) => ({ ...e, field: `consent.${e.field}` }))),
    ]
    return { ok: false, message: 'Some fields are invalid', errors }
  }
  const errors = textIssues(parsed.data.legalInformation, texts)
  if (errors.length > 0) {
    return {
      ok: false,
      message: "The lead's consent texts are not the operator's; fix the fields listed.",
      errors,
    }
  }
  const lead = consent === undefined ? parsed.data : { ...parsed.data, consent: extension.data }
  return { ok: true, lead: lead as LeadInput }
}

/** A text the lead was given with that is not the one served; an empty or absent TCPA text is no text. */
function textIssues(legal: LeadInput['legalInformation'], texts: ConsentTexts): FieldIssue[] {
  const issues: FieldIssue[] = []
  const served = `show the text GET ${BFF_ROUTES.consentTexts} serves, word for word`
  if (legal.fcraLanguage !== texts.fcra.text) {
    issues.push({
      field: 'legalInformation.fcraLanguage',
      reason: `legalInformation.fcraLanguage is not the operator's FCRA text: ${served}`,
    })
  }
  const tcpa = legal.tcpaLanguage
  if (tcpa !== undefined && tcpa !== '' && tcpa !== texts.tcpa?.text) {
    issues.push({
      field: 'legalInformation.tcpaLanguage',
      reason: texts.tcpa
        ? `legalInformation.tcpaLanguage is not the operator's TCPA text: ${served}`
        : "legalInformation.tcpaLanguage is not the operator's TCPA text: this operator shows no TCPA text, so send neither consentstoTcpa nor tcpaLanguage",
    })
  }
  return issues
}
