/**
 * @module The PII finder on every partner field (issue 30, "PII in partner text and URLs"): each spelling of
 * the lead's values drops the offer when it is in `name`, `display_name`, `offer_details`, `product_type`,
 * `click_url` or `logo_src`, and is masked out of `lead_id` and `reason`; innocent copy and tracking links
 * pass every field untouched.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Lead, PartnerOffer } from '../../../src/contract/partner.ts'
import { offerProblems } from '../../../src/marketplace/fan-out/offer-problems.ts'
import { createPiiFinder, type PiiFinding } from '../../../src/marketplace/fan-out/pii-finder.ts'
import { identifyingValues, redactLeadId, redactReason } from '../../../src/marketplace/fan-out/redact.ts'
import { makeKnownLead } from '../support/harness.ts'

const LEAD = makeKnownLead() as unknown as Lead
const find = createPiiFinder(LEAD)
const VALUES = identifyingValues(LEAD)
const b64 = (text: string) => Buffer.from(text).toString('base64')
const b64url = (text: string) => Buffer.from(text).toString('base64url')
const percent = (text: string, layers: number) => {
  let out = text
  for (let i = 0; i < layers; i++) out = encodeURIComponent(out)
  return out
}
/** Each ASCII digit as the same digit of another script (fullwidth U+FF10, Arabic-Indic U+0660, ...). */
const script = (text: string, zero: number) =>
  text.replace(/\d/g, (d) => String.fromCodePoint(zero + Number(d)))
const FULLWIDTH = 0xff10
const ARABIC_INDIC = 0x0660
const DEVANAGARI = 0x0966

/** The lead of `makeKnownLead()`: SSN 987-65-4329, phone 202-555-0147, born 1983-07-19, Quentina Probeworth. */
const SPELLINGS: Array<[label: string, payload: string, kind: PiiFinding]> = [
  ['SSN as sent', '987-65-4329', 'SSN'],
  ['SSN without separators', '987654329', 'SSN'],
  ['SSN in fullwidth digits', script('987-65-4329', FULLWIDTH), 'SSN'],
  ['SSN in fullwidth digits, percent-encoded', encodeURIComponent(script('987654329', FULLWIDTH)), 'SSN'],
  ['SSN in Arabic-Indic digits', script('987654329', ARABIC_INDIC), 'SSN'],
  [
    'SSN in Arabic-Indic digits, percent-encoded',
    encodeURIComponent(script('987-65-4329', ARABIC_INDIC)),
    'SSN',
  ],
  ['SSN in Devanagari digits', script('987 65 4329', DEVANAGARI), 'SSN'],
  ['SSN with a digit glued before', '1987654329', 'SSN'],
  ['SSN with a digit glued after', '9876543290', 'SSN'],
  ['SSN inside a longer number', 'order19876543290', 'SSN'],
  ['SSN with ":" separators', '987:65:4329', 'SSN'],
  ['SSN with "," separators', '987,65,4329', 'SSN'],
  ['SSN with en dashes', '987\u201365\u20134329', 'SSN'],
  ['SSN with zero-width spaces', '987\u200b65\u200b4329', 'SSN'],
  ['SSN with soft hyphens', '987\u00ad65\u00ad4329', 'SSN'],
  ['SSN with bidi marks', '\u202e987\u200e654329\u202c', 'SSN'],
  ['SSN split across two query parameters', 'a=987-65&b=4329', 'SSN'],
  ['SSN split across parameters, reversed', 'last=4329&first=987-65', 'SSN'],
  ['SSN split across three parameters', 's1=987&s2=65&s3=4329', 'SSN'],
  ['SSN in base64', b64('987654329'), 'SSN'],
  ['SSN in base64 twice', b64(b64('987-65-4329')), 'SSN'],
  ['SSN in base64url JSON', b64url('{"ssn":"987-65-4329"}'), 'SSN'],
  ['SSN percent-encoded twice', percent('987-65-4329', 2).replace(/-/g, '%252D'), 'SSN'],
  ['SSN percent-encoded four times', percent('987 65 4329', 4), 'SSN'],
  ['SSN percent-encoded five times (past the bound)', percent('ssn 987 65 4329', 5), 'nested encoding'],
  ['SSN in base64 five times (past the bound)', b64(b64(b64(b64(b64('987654329'))))), 'nested encoding'],
  ['phone with 001', '0012025550147', 'phone number'],
  ['phone with +1 and brackets', '+1 (202) 555-0147', 'phone number'],
  ['phone with a digit glued after', '20255501479', 'phone number'],
  ['phone in fullwidth digits', script('202.555.0147', FULLWIDTH), 'phone number'],
  ['phone split across parameters', 'area=202&num=5550147', 'phone number'],
  ['date of birth 1988_06_15 style', '1983_07_19', 'date of birth'],
  ['date of birth yyyymmdd', '19830719', 'date of birth'],
  ['date of birth mm/dd/yyyy', '07/19/1983', 'date of birth'],
  ['date of birth m/d/yyyy', '7/19/1983', 'date of birth'],
  ['date of birth dd.mm.yyyy', '19.07.1983', 'date of birth'],
  ['date of birth with spaces', '1983 07 19', 'date of birth'],
  ['date of birth with a month name', 'July 19th, 1983', 'date of birth'],
  ['date of birth percent-encoded', '07%2F19%2F1983', 'date of birth'],
  ['email as sent', 'pii.probe.lead@example.com', 'email address'],
  ['email in capitals', 'PII.Probe.Lead@EXAMPLE.COM', 'email address'],
  ['email with a percent-encoded @', 'pii.probe.lead%40example.com', 'email address'],
  ['email with a fullwidth @', 'pii.probe.lead\uff20example.com', 'email address'],
  ['email with a zero-width space', 'pii.probe\u200b.lead@example.com', 'email address'],
  ['email split across parameters', 'u=pii.probe.lead&d=example.com', 'email address'],
  ['email split across parameters, reversed', 'd=example.com&u=pii.probe.lead', 'email address'],
  ['email in base64url', b64url('pii.probe.lead@example.com'), 'email address'],
  ['email spelled with "at" and "dot"', 'pii dot probe dot lead at example dot com', 'email address'],
  ['email spelled with "(at)" and "(dot)"', 'pii.probe.lead(at)example(dot)com', 'email address'],
  ['email spelled with "[at]"', 'PII.Probe.Lead [at] example [dot] com', 'email address'],
  ['first and last name', 'Quentina Probeworth', 'name'],
  ['last name, first name', 'PROBEWORTH, Quentina', 'name'],
  ['first and last name run together', 'QuentinaProbeworth', 'name'],
  ['first and last name in two parameters', 'fn=Quentina&ln=Probeworth', 'name'],
  ['street address', '4821 Unlikely Boulevard', 'street address'],
]

/** Things partners legitimately send: rates, amounts, ZIPs, years, other numbers, tracking links. */
const INNOCENT = [
  '12.5% APR',
  'Rates from 5.99% to 35.99% APR. Borrow $1,000 to $35,000 over 24 to 60 months.',
  'Serving ZIP 95814 since 1983',
  'Call 1-800-555-0199 or 202-555-0199, 7 days a week',
  'Your SSN ending in 4329 is never shared',
  'Offer valid 07/19/2026 to 12/31/2026',
  'Installment loan',
  'debt_relief',
  'utm_source=comparison&utm_medium=widget&utm_campaign=2026-q3&zip=95814&amount=12000',
  'gclid=Cj0KCQiA4NWrBhD-ARIsAFCKwWtZ3kq9',
  'ref_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c',
  `token=${b64url('a random token with no pii at all')}`,
  'u=https%253A%252F%252Flender.example.com%252Fapply%253Fterm%253D36',
  'v=2026-11-25&rate=12.5&term=36',
]

const URL_FIELDS = ['click_url', 'logo_src'] as const
const TEXT_FIELDS = ['name', 'display_name', 'offer_details', 'product_type'] as const

/** The payload as a partner would put it in `field`. */
function inField(field: string, payload: string): string {
  if (field === 'click_url' || field === 'logo_src') {
    return `https://lender.example.com/apply/${field}?src=widget&${payload.includes('=') ? payload : `ref=${payload}`}`
  }
  return `Lender offer ${payload} apply today`
}

const offerWith = (field: string, value: string): PartnerOffer => ({
  rate: 10,
  click_url: 'https://lender.example.com/apply',
  [field]: value,
})

const rules = { findPii: find, publicLinksOnly: true }

describe('a spelling of the lead PII in an offer field drops the offer', () => {
  it.each(
    SPELLINGS.flatMap(([label, payload, kind]) =>
      [...URL_FIELDS, ...TEXT_FIELDS].map((field) => [field, label, payload, kind] as const),
    ),
  )('%s: %s', async (field, _label, payload, kind) => {
    const { kept, dropped } = await offerProblems([offerWith(field, inField(field, payload))], rules)
    expect(kept).toEqual([])
    expect(dropped).toEqual([
      kind === 'nested encoding'
        ? `offers[0].${field} is encoded more than 4 layers deep`
        : `offers[0].${field} carries the lead's ${kind}`,
    ])
  })
})

describe('a spelling of the lead PII in lead_id or reason is masked', () => {
  it.each(
    SPELLINGS.flatMap(([label, payload]) => [
      ['lead_id', label, payload] as const,
      ['reason', label, payload] as const,
    ]),
  )('%s: %s', (field, _label, payload) => {
    const value = `${field === 'lead_id' ? 'app-' : 'duplicate of '}${payload}`
    const masked = field === 'lead_id' ? redactLeadId(value, VALUES) : redactReason(value, VALUES)
    expect(masked).toContain('[redacted]')
    expect(find(masked ?? '')).toBeUndefined()
  })
})

describe('innocent values pass every field', () => {
  it.each(
    INNOCENT.flatMap((payload) => [...URL_FIELDS, ...TEXT_FIELDS].map((field) => [field, payload] as const)),
  )('%s: %s', async (field, payload) => {
    const offer = offerWith(field, inField(field, payload))
    expect(await offerProblems([offer], rules)).toEqual({
      kept: [{ offer, position: 0 }],
      dropped: [],
      termsDropped: [],
      termsTrimmed: [],
    })
  })

  it.each(INNOCENT)('lead_id and reason keep %s', (payload) => {
    expect(redactLeadId(`app-${payload}`, VALUES)).toBe(`app-${payload}`)
    expect(redactReason(`declined: ${payload}`, VALUES)).toBe(`declined: ${payload}`)
  })
})

describe('masking in place', () => {
  it('masks the value where it stands and keeps the rest, brackets and country code included', () => {
    expect(redactReason('dup of +1 (202) 555-0147 / 987\u201365\u20134329, Doe', VALUES)).toBe(
      'dup of [redacted] / [redacted], Doe',
    )
    expect(redactLeadId('app-order19876543290', VALUES)).toBe('app-order1[redacted]0')
  })

  it('masks the whole value when the PII is only found decoded', () => {
    expect(redactLeadId(`app-${b64('987654329')}`, VALUES)).toBe('[redacted]')
    expect(redactReason(percent('ssn 987 65 4329', 5), VALUES)).toBe('[redacted]')
  })
})

describe('properties', () => {
  it('the SSN is found whatever non-letter characters separate its digits', () => {
    const separator = fc.stringMatching(/^[\s\-–—.,:;/_()\u200b\u00ad+*~|]{0,3}$/)
    fc.assert(
      fc.property(
        fc.array(separator, { minLength: 8, maxLength: 8 }),
        fc.string({ maxLength: 5 }),
        (seps, junk) => {
          const digits = [...'987654329']
          const spelled = digits.map((d, i) => `${d}${seps[i] ?? ''}`).join('')
          expect(find(`${junk.replace(/[0-9]/g, '')} ${spelled}`)).toBe('SSN')
        },
      ),
    )
  })

  it('a random 9-digit number other than the SSN, alone, is never the SSN', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000_000, max: 999_999_999 }), (n) => {
        fc.pre(!String(n).includes('987654329'))
        expect(find(`ref ${n}`)).not.toBe('SSN')
      }),
    )
  })
})
