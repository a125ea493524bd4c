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

const YAML = `
version: "2026-11"
fcra: |
  I authorize lenders to obtain my consumer credit report.
tcpa: Lenders may call and text me.
previous:
  - version: "2026-01"
    fcra: I authorize lenders to pull my credit.
    tcpa: Lenders may call and text me.
`

describe('consent texts', () => {
  it('parses the current set and the previous ones; a text is its content hash, under the newest version holding it', () => {
    const texts = parseConsentTexts(YAML)
    const fcra = 'I authorize lenders to obtain my consumer credit report.'
    expect(texts.served).toEqual({
      version: '2026-11',
      // A YAML block scalar's trailing newline is no part of the text.
      fcra: { id: createHash('sha256').update(fcra).digest('hex').slice(0, 16), text: fcra },
      tcpa: { id: consentTextId('Lenders may call and text me.'), text: 'Lenders may call and text me.' },
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
    writeFileSync(file, JSON.stringify({ version: 'v1', fcra: 'FCRA words.' }))
    const texts = loadConsentTexts(file)
    expect(texts.served).toEqual({
      version: 'v1',
      fcra: { id: consentTextId('FCRA words.'), text: 'FCRA words.' },
    })
    expect(texts.tcpa.size).toBe(0)
  })

  it.each([
    [
      'wrong types, an empty text and an unknown key',
      'version: 1\nfcra: ""\nextra: 1',
      [
        'version: version must be a string',
        'fcra: fcra must not be empty',
        '(file): extra is not a key of the consent texts: use version, fcra, tcpa, previous',
      ],
    ],
    ['a list', '- a list', ['(file): the consent texts must be an object { version, fcra, tcpa, previous }']],
    [
      'a text too long',
      `version: v\nfcra: ${'x'.repeat(10_001)}`,
      ['fcra: fcra must be at most 10000 characters'],
    ],
    [
      'one text for both consents',
      'version: v\nfcra: same\ntcpa: same',
      ['tcpa: a TCPA text is the same as an FCRA text'],
    ],
    [
      'an unknown key in an earlier set',
      'version: v\nfcra: a\nprevious:\n  - version: w\n    fcra: b\n    note: d',
      ['previous.0: note is not a key of an earlier set in previous: use version, fcra, tcpa'],
    ],
    [
      'a version used twice',
      'version: v\nfcra: a\nprevious:\n  - version: v\n    fcra: b',
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
    for (const { lead } of sampleLeads()) {
      expect(texts.fcra.has(lead.legalInformation.fcraLanguage)).toBe(true)
      const tcpa = lead.legalInformation.tcpaLanguage
      if (tcpa !== undefined) expect(texts.tcpa.has(tcpa)).toBe(true)
    }
  })
})
