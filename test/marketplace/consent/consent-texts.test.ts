/**
 * @module The operator's consent texts as `CONSENT_TEXTS_FILE` gives them: parsed from YAML or JSON, each text
 * under its content hash and the newest version holding it, refused with every problem named by field; and
 * sandbox mode's built-in texts, the partner kit's sample texts.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ConsentTextsError,
  consentTextId,
  loadConsentTexts,
  parseConsentTexts,
  sandboxConsentTexts,
} from '../../../src/marketplace/consent/consent-texts.ts'
import { SAMPLE_FCRA_TEXT, SAMPLE_TCPA_TEXT, sampleLeads } from '../../../src/partner-kit/sample-leads.ts'
import { DEFAULT_LOAN_LABELS } from '../../../src/widget/loan-application/loan-labels.ts'
import { NOTICES } from '../support/consent-notices.ts'

const NOTICES_YAML = `
noDecisionNotice: If you did not receive an offer from a lending partner, no credit decision has been made.
softPullNotice: Checking your rate won't affect your credit score.
links:
  terms: { label: Terms of Service, url: "https://offers.example.com/terms" }
  privacy: { label: Privacy Policy, url: "https://offers.example.com/privacy" }
  esign: false   # every disclosure is also mailed on paper
`
const YAML = `
version: "2026-11"
fcra: |
  By clicking "{button}" I authorize lenders to make a soft inquiry into my credit report.
tcpa: Lenders may call and text me.
${NOTICES_YAML}
previous:
  - version: "2026-01"
    fcra: I authorize lenders to pull my credit.
    tcpa: Lenders may call and text me.
`

describe('consent texts', () => {
  it('parses the current set and the previous ones; a text is its content hash, under the newest version holding it', () => {
    const texts = parseConsentTexts(YAML)
    // {button} is the submit button's label: the widget's own unless the file names another.
    const fcra =
      'By clicking "See my loan offers" I authorize lenders to make a soft inquiry into my credit report.'
    expect(texts.served).toEqual({
      version: '2026-11',
      // A YAML block scalar's trailing newline is no part of the text.
      fcra: { id: createHash('sha256').update(fcra).digest('hex').slice(0, 16), text: fcra },
      tcpa: { id: consentTextId('Lenders may call and text me.'), text: 'Lenders may call and text me.' },
      submitLabel: 'See my loan offers',
      notices: {
        noDecision:
          'If you did not receive an offer from a lending partner, no credit decision has been made.',
        softPull: "Checking your rate won't affect your credit score.",
      },
      // A link the operator left out (false) is not served.
      links: {
        terms: { label: 'Terms of Service', url: 'https://offers.example.com/terms' },
        privacy: { label: 'Privacy Policy', url: 'https://offers.example.com/privacy' },
      },
    })
    expect([...texts.fcra.values()].map((t) => [t.version, t.text])).toEqual([
      ['2026-11', fcra],
      ['2026-01', 'I authorize lenders to pull my credit.'],
    ])
    // The TCPA text did not change: it is the newest set's.
    expect([...texts.tcpa.values()].map((t) => t.version)).toEqual(['2026-11'])
  })

  it('reads JSON by its extension, and a set with no TCPA text serves none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'consent-texts-'))
    const file = join(dir, 'texts.json')
    const fcra = 'Clicking "{button}" gives FCRA consent.'
    writeFileSync(
      file,
      JSON.stringify({
        version: 'v1',
        fcra,
        submitLabel: 'Check my rate',
        ...NOTICES,
        noDecisionNotice: false,
      }),
    )
    const texts = loadConsentTexts(file)
    const named = 'Clicking "Check my rate" gives FCRA consent.'
    expect(texts.served).toEqual({
      version: 'v1',
      fcra: { id: consentTextId(named), text: named },
      submitLabel: 'Check my rate',
      notices: { softPull: NOTICES.softPullNotice },
      links: NOTICES.links,
    })
    // The text a lead must carry is the one served, the button named.
    expect(texts.fcra.has(named)).toBe(true)
    expect(texts.tcpa.size).toBe(0)
  })

  it.each([
    [
      'wrong types, an empty text and an unknown key',
      `version: 1\nfcra: ""\nextra: 1${NOTICES_YAML}`,
      [
        'version: version must be a string',
        'fcra: fcra must not be empty',
        '(file): extra is not a key of the consent texts: use version, fcra, tcpa, submitLabel, noDecisionNotice, softPullNotice, links, previous',
      ],
    ],
    [
      'a list',
      '- a list',
      [
        '(file): the consent texts must be an object { version, fcra, tcpa, submitLabel, noDecisionNotice, softPullNotice, links, previous }',
      ],
    ],
    [
      'a file without the notices and links',
      'version: v\nfcra: By clicking "{button}" I consent.',
      [
        'noDecisionNotice: noDecisionNotice is missing or not a text: write the notice as it is shown ("If you did not receive an offer from a lending partner, no credit decision has been made"), or false to show none',
        'softPullNotice: softPullNotice is missing or not a text: write the notice as it is shown ("Checking your rate won\'t affect your credit score"), or false',
        'links: links is missing: write { terms, privacy, esign }, each { label, url } or false',
      ],
    ],
    [
      'a link left unsaid, and one to http',
      `version: v\nfcra: By clicking "{button}" I consent.\nnoDecisionNotice: n\nsoftPullNotice: s\nlinks:\n  terms: { label: Terms, url: "http://example.com/terms" }\n  privacy: false`,
      [
        'links.terms',
        'links.esign: links.esign is missing or malformed: write { label: "E-SIGN consent", url: "https://..." }, or false',
      ],
    ],
    [
      'an FCRA text that names another button',
      `version: v\nfcra: By clicking Continue I consent.${NOTICES_YAML}`,
      [
        'fcra: the text does not name the submit button "See my loan offers": write {button} where it names the button',
      ],
    ],
    [
      'a text too long',
      `version: v\nfcra: ${'x'.repeat(10_001)}`,
      ['fcra: fcra must be at most 10000 characters'],
    ],
    [
      'one text for both consents',
      `version: v\nfcra: same {button}\ntcpa: same {button}${NOTICES_YAML}`,
      ['tcpa: a TCPA text is the same as an FCRA text'],
    ],
    [
      'an unknown key in an earlier set',
      `version: v\nfcra: a {button}${NOTICES_YAML}previous:\n  - version: w\n    fcra: b\n    note: d`,
      ['previous.0: note is not a key of an earlier set in previous: use version, fcra, tcpa'],
    ],
    [
      'a version used twice',
      `version: v\nfcra: a {button}${NOTICES_YAML}previous:\n  - version: v\n    fcra: b`,
      ['previous.0.version: "v" is used twice; give each set of texts its own version'],
    ],
    ['YAML that does not parse', 'version: [', ['not valid YAML']],
  ])('refuses %s, naming the file, each field and the fix', (_, source, problems) => {
    const parse = () => parseConsentTexts(source, { origin: 'CONSENT_TEXTS_FILE texts.yaml' })
    expect(parse).toThrow(ConsentTextsError)
    for (const problem of problems) expect(parse).toThrow(problem)
    expect(parse).toThrow(/^CONSENT_TEXTS_FILE texts\.yaml/)
  })

  it('names CONSENT_TEXTS_FILE when the file cannot be read', () => {
    expect(() => loadConsentTexts('/nonexistent/texts.yaml')).toThrow(
      /^CONSENT_TEXTS_FILE \/nonexistent\/texts\.yaml: cannot be read \(ENOENT\); check the path/,
    )
  })

  it("sandbox mode's texts are the partner kit's sample texts, the ones every sample lead carries", () => {
    const texts = sandboxConsentTexts()
    expect(texts.served.fcra.text).toBe(SAMPLE_FCRA_TEXT)
    expect(texts.served.tcpa?.text).toBe(SAMPLE_TCPA_TEXT)
    expect(Object.keys(texts.served.notices).sort()).toEqual(['noDecision', 'softPull'])
    expect(Object.keys(texts.served.links).sort()).toEqual(['esign', 'privacy', 'terms'])
    for (const { lead } of sampleLeads()) {
      expect(texts.fcra.has(lead.legalInformation.fcraLanguage)).toBe(true)
      const tcpa = lead.legalInformation.tcpaLanguage
      if (tcpa !== undefined) expect(texts.tcpa.has(tcpa)).toBe(true)
    }
  })

  it("sandbox mode's texts name the widget's submit button, say the check is a soft inquiry, and carry the notices", () => {
    const { served } = sandboxConsentTexts()
    expect(served.submitLabel).toBe(DEFAULT_LOAN_LABELS.loanSubmit)
    expect(served.fcra.text).toContain(`"${DEFAULT_LOAN_LABELS.loanSubmit}"`)
    expect(served.tcpa?.text).toContain(`"${DEFAULT_LOAN_LABELS.loanSubmit}"`)
    expect(served.fcra.text).toMatch(/soft inquiry does not affect your credit score/)
    expect(served.fcra.text).not.toMatch(/Continue|obtain your consumer credit report/)
    expect(served.notices.noDecision).toMatch(
      /^If you did not receive an offer from a lending partner, no credit decision has been made/,
    )
    expect(served.notices.softPull).toBe("Checking your rate won't affect your credit score.")
    for (const link of [served.links.terms, served.links.privacy, served.links.esign])
      expect(link?.url).toMatch(/^https:\/\//)
  })
})
