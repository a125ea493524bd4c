/**
 * @module A submitted lead's consent, checked and split (docs/second-look.md, "Consent and its proof"): its
 * FCRA and TCPA texts must be the operator's own, word for word (a browser cannot substitute its own); the
 * `consent` extension is taken out of the lead partners are sent, its certificate forwarded as the documented
 * `consentCertificate`; and what the consent record keeps is gathered.
 */
import { BFF_ROUTES } from '../../contract/bff.ts'
import type { FieldIssue } from '../../contract/common.ts'
import type { Lead, LeadInput } from '../../contract/partner.ts'
import type { NewConsentRecord } from '../../ledger/index.ts'
import type { ConsentKind, ConsentTextEntry, OperatorConsentTexts } from './consent-texts.ts'

/** The operator's texts a lead was given with. */
export interface MatchedTexts {
  fcra: ConsentTextEntry
  tcpa?: ConsentTextEntry | undefined
}

const NAMES: Record<ConsentKind, string> = { fcra: 'FCRA', tcpa: 'TCPA' }

/**
 * The lead's texts matched against the operator's, current or `previous`; else one issue per text that is
 * not the operator's, naming the field and the fix.
 */
export function matchConsentTexts(
  texts: OperatorConsentTexts,
  legal: LeadInput['legalInformation'],
): { ok: true; texts: MatchedTexts } | { ok: false; errors: FieldIssue[] } {
  const errors: FieldIssue[] = []
  const fcra = texts.fcra.get(legal.fcraLanguage)
  if (fcra === undefined) errors.push(notOperators('fcra', 'fcraLanguage', texts))
  const tcpaText = legal.tcpaLanguage
  const tcpa = tcpaText === undefined || tcpaText === '' ? undefined : texts.tcpa.get(tcpaText)
  if (tcpaText !== undefined && tcpaText !== '' && tcpa === undefined) {
    errors.push(notOperators('tcpa', 'tcpaLanguage', texts))
  }
  if (errors.length > 0 || fcra === undefined) return { ok: false, errors }
  return { ok: true, texts: { fcra, tcpa } }
}

function notOperators(kind: ConsentKind, key: string, texts: OperatorConsentTexts): FieldIssue {
  const field = `legalInformation.${key}`
  const name = NAMES[kind]
  const reason =
    kind === 'tcpa' && texts.tcpa.size === 0
      ? `${field} is not the operator's TCPA text: this operator shows no TCPA text, so send neither consentstoTcpa nor tcpaLanguage`
      : `${field} is not the operator's ${name} text: show the text GET ${BFF_ROUTES.consentTexts} serves, word for word`
  return { field, reason }
}

/**
 * The lead partners are sent: the fields of docs/partner-interface.md with the live session, the operator's
 * texts exactly as they match, no `consent`, and the `consentCertificate` extension only when the page gave a
 * certificate.
 */
export function partnerLeadOf(
  input: LeadInput,
  session: Lead['sessionInformation'],
  texts: MatchedTexts,
): Lead {
  const { consent, sessionInformation: _dropped, legalInformation, ...fields } = input
  const certificate = {
    ...(consent?.trustedFormCertUrl === undefined ? {} : { trustedFormCertUrl: consent.trustedFormCertUrl }),
    ...(consent?.leadiDToken === undefined ? {} : { leadiDToken: consent.leadiDToken }),
  }
  return {
    ...fields,
    legalInformation: {
      ...legalInformation,
      fcraLanguage: texts.fcra.text,
      ...(texts.tcpa ? { tcpaLanguage: texts.tcpa.text } : {}),
    },
    sessionInformation: session,
    ...(Object.keys(certificate).length > 0 ? { consentCertificate: certificate } : {}),
  } as Lead
}

/** What the consent record keeps of a lead: never its SSN, date of birth, name, email, phone or address. */
export function consentRecordOf(
  input: LeadInput,
  lead: Lead,
  texts: MatchedTexts,
  widgetHeader: string | undefined,
): NewConsentRecord {
  const { consent } = input
  const tcpa = lead.legalInformation.consentstoTcpa
  return {
    fcra: texts.fcra,
    tcpa: texts.tcpa,
    tcpaChecked: tcpa === undefined ? undefined : tcpa === 'true',
    pageUrl: consent?.pageUrl === undefined ? undefined : pageUrlOf(consent.pageUrl),
    ipAddress: lead.sessionInformation.ipAddress,
    userAgent: lead.sessionInformation.userAgent,
    widgetVersion: widgetVersionOf(widgetHeader),
    trustedFormCertUrl: consent?.trustedFormCertUrl,
    leadiDToken: consent?.leadiDToken,
  }
}

/**
 * The page a lead was given on, as kept: scheme, host, port and path only. The query string and fragment
 * (they may carry an email or a tracking id) and any user name or password are dropped.
 */
function pageUrlOf(value: string): string | undefined {
  try {
    const url = new URL(value)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    return `${url.origin}${url.pathname}`
  } catch {
    return undefined
  }
}

/** `X-Offer-Widget` as kept: printable ASCII, at most 64 characters; undefined when absent or empty. */
function widgetVersionOf(header: string | undefined): string | undefined {
  const value = header
    ?.trim()
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 64)
  return value ? value : undefined
}
