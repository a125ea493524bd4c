/**
 * @module The lead's `consent` extension (src/contract/consent.ts), read when the visitor submits: the page
 * the application is on, and the consent certificate the host page's own script holds (TrustedForm's hidden
 * field, Jornaya LeadiD's token). Read from the host document, which the widget's shadow root is part of.
 * The publisher's prefilled `consent` wins, key by key; each value is kept only when the schema accepts it,
 * so one bad value never costs the others or the lead.
 */
import { type ConsentContext, consentContextSchema } from '../../contract/consent.ts'

const KEYS = ['pageUrl', 'trustedFormCertUrl', 'leadiDToken'] as const

/** The page without query or fragment: either can carry the visitor's PII (an email in a tracking link). */
function pageUrlOf(doc: Document): string | undefined {
  const location = doc.defaultView?.location
  if (!location || !/^https?:$/.test(location.protocol)) return undefined
  return `${location.origin}${location.pathname}`
}

function inputValue(doc: Document, selector: string): string | undefined {
  const value = doc.querySelector<HTMLInputElement>(selector)?.value.trim()
  return value || undefined
}

/** What the page shows: its URL, TrustedForm's `xxTrustedFormCertUrl` field, LeadiD's `leadid_token`. */
function fromPage(doc: Document): Partial<Record<(typeof KEYS)[number], string>> {
  return {
    pageUrl: pageUrlOf(doc),
    trustedFormCertUrl: inputValue(doc, 'input[name="xxTrustedFormCertUrl"]'),
    leadiDToken: inputValue(doc, 'input#leadid_token') ?? inputValue(doc, 'input[name="universal_leadid"]'),
  }
}

/** The `consent` object for the lead, or undefined when nothing valid is known. */
export function readConsentContext(
  node: Node | null | undefined,
  prefill: Partial<ConsentContext> | undefined,
): ConsentContext | undefined {
  const page = node?.ownerDocument ? fromPage(node.ownerDocument) : {}
  const given: Record<string, unknown> = typeof prefill === 'object' && prefill !== null ? prefill : {}
  const context: ConsentContext = {}
  for (const key of KEYS) {
    for (const value of [given[key], page[key]]) {
      if (value === undefined) continue
      const parsed = consentContextSchema.safeParse({ [key]: value })
      if (parsed.success) {
        context[key] = parsed.data[key]
        break
      }
    }
  }
  return Object.keys(context).length > 0 ? context : undefined
}
