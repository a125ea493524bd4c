import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toFieldIssues } from '../../src/contract/common.ts'
import { leadInputSchema, leadSchema, partnerReplySchema, US_STATES } from '../../src/contract/partner.ts'
import { leadArb, partnerReplyArb } from './support/arbitraries.ts'

function fieldsOf(
  result: { success: true } | { success: false; error: Parameters<typeof toFieldIssues>[0] },
): string[] {
  return result.success ? [] : toFieldIssues(result.error).map((i) => i.field)
}

function without<T>(value: T, path: string[]): T {
  const copy = structuredClone(value) as Record<string, unknown>
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>
  delete node[path.at(-1) as string]
  return copy as T
}

function set<T>(value: T, path: string[], next: unknown): T {
  const copy = structuredClone(value) as Record<string, unknown>
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>
  node[path.at(-1) as string] = next
  return copy as T
}

describe('docs/partner-interface.md lead', () => {
  it('parses every generated valid lead', () => {
    fc.assert(fc.property(leadArb, (lead) => void expect(fieldsOf(leadSchema.safeParse(lead))).toEqual([])))
  })

  // Availability "Y = always": each of these removed fails naming it.
  const alwaysAvailable = [
    'personalInformation',
    'personalInformation.firstName',
    'personalInformation.lastName',
    'personalInformation.email',
    'personalInformation.city',
    'personalInformation.state',
    'personalInformation.primaryPhone',
    'personalInformation.address1',
    'personalInformation.zipcode',
    'personalInformation.dateOfBirth',
    'personalInformation.ssn',
    'loanInformation',
    'loanInformation.purpose',
    'creditInformation',
    'legalInformation',
    'legalInformation.consentsToFcra',
    'legalInformation.fcraLanguage',
    'sessionInformation',
    'sessionInformation.ipAddress',
    'sessionInformation.userAgent',
  ]
  it.each(alwaysAvailable)('"Y = always": removing %s fails naming it', (field) => {
    fc.assert(
      fc.property(
        leadArb,
        (lead) =>
          void expect(fieldsOf(leadSchema.safeParse(without(lead, field.split('.'))))).toContain(field),
      ),
    )
  })

  it.each(['personalInformation.address2', 'loanInformation.loanAmount', 'mortgageInformation'])(
    '"N = not always": %s may be absent',
    (field) => {
      fc.assert(
        fc.property(
          leadArb,
          (lead) => void expect(leadSchema.safeParse(without(lead, field.split('.'))).success).toBe(true),
        ),
      )
    },
  )

  it('"exactly one of this and providedNumericCreditScore": neither fails, both fail', () => {
    fc.assert(
      fc.property(leadArb, (lead) => {
        const neither = set(lead, ['creditInformation'], {})
        expect(fieldsOf(leadSchema.safeParse(neither))).toContain('creditInformation.providedCreditRating')
        const both = set(lead, ['creditInformation'], {
          providedCreditRating: 'good',
          providedNumericCreditScore: 700,
        })
        expect(fieldsOf(leadSchema.safeParse(both))).toContain('creditInformation.providedCreditRating')
      }),
    )
  })

  it('"one of annualIncome and monthlyNetIncome is present": neither fails', () => {
    fc.assert(
      fc.property(leadArb, (lead) => {
        const neither = set(lead, ['financialInformation'], { employmentStatus: 'employed' })
        expect(fieldsOf(leadSchema.safeParse(neither))).toContain('financialInformation.annualIncome')
      }),
    )
  })

  it('"tcpaLanguage present when consentstoTcpa is true" (key spelled exactly so)', () => {
    fc.assert(
      fc.property(leadArb, (lead) => {
        const broken = set(lead, ['legalInformation'], {
          consentsToFcra: 'true',
          fcraLanguage: 'x',
          consentstoTcpa: 'true',
        })
        expect(fieldsOf(leadSchema.safeParse(broken))).toContain('legalInformation.tcpaLanguage')
        const declined = set(lead, ['legalInformation'], {
          consentsToFcra: 'true',
          fcraLanguage: 'x',
          consentstoTcpa: 'false',
        })
        expect(leadSchema.safeParse(declined).success).toBe(true)
      }),
    )
  })

  it('consentsToFcra must carry true', () => {
    fc.assert(
      fc.property(leadArb, fc.constantFrom('false', 'yes', '', true, 1), (lead, bad) => {
        expect(
          fieldsOf(leadSchema.safeParse(set(lead, ['legalInformation', 'consentsToFcra'], bad))),
        ).toContain('legalInformation.consentsToFcra')
      }),
    )
  })

  it('state is one of the 50 states plus DC, PR and VI', () => {
    expect(US_STATES).toHaveLength(53)
    for (const state of ['DC', 'PR', 'VI', 'CA', 'WY']) expect(US_STATES).toContain(state)
    fc.assert(
      fc.property(leadArb, fc.constantFrom('GU', 'AS', 'MP', 'XX', 'ca', 'California'), (lead, bad) => {
        expect(fieldsOf(leadSchema.safeParse(set(lead, ['personalInformation', 'state'], bad)))).toContain(
          'personalInformation.state',
        )
      }),
    )
  })

  it('dateOfBirth is a real yyyy-mm-dd date', () => {
    fc.assert(
      fc.property(
        leadArb,
        fc.constantFrom('1990-02-30', '1990-00-10', '01/02/1990', '1990-2-3'),
        (lead, bad) => {
          expect(
            fieldsOf(leadSchema.safeParse(set(lead, ['personalInformation', 'dateOfBirth'], bad))),
          ).toContain('personalInformation.dateOfBirth')
        },
      ),
    )
  })

  it('the intake shape takes no sessionInformation from the body but keeps every other rule', () => {
    fc.assert(
      fc.property(leadArb, (lead) => {
        expect(leadInputSchema.safeParse(without(lead, ['sessionInformation'])).success).toBe(true)
        expect(fieldsOf(leadInputSchema.safeParse(set(lead, ['creditInformation'], {})))).toContain(
          'creditInformation.providedCreditRating',
        )
      }),
    )
  })

  it('intake refuses an unknown key at every level, naming each, with the other problems in one answer', () => {
    fc.assert(
      fc.property(leadArb, (lead) => {
        let body = set(lead, ['bankAccount'], '12345678')
        body = set(body, ['personalInformation', 'mothersMaidenName'], 'Smith')
        body = set(body, ['legalInformation', 'consentsToTcpa'], 'true')
        body = set(body, ['creditInformation', 'ficoScore'], 700)
        body = set(body, ['loanInformation', 'purpose'], '')
        const result = leadInputSchema.safeParse(body)
        expect(result.success).toBe(false)
        const issues = result.success ? [] : toFieldIssues(result.error)
        expect(issues.map((i) => i.field)).toEqual(
          expect.arrayContaining([
            'bankAccount',
            'personalInformation.mothersMaidenName',
            'legalInformation.consentsToTcpa',
            'creditInformation.ficoScore',
            'loanInformation.purpose',
          ]),
        )
        const tcpa = issues.find((i) => i.field === 'legalInformation.consentsToTcpa')
        expect(tcpa?.reason).toMatch(/did you mean legalInformation\.consentstoTcpa\?/)
        expect(issues.find((i) => i.field === 'bankAccount')?.reason).toMatch(
          /^bankAccount is not a field of the lead .*remove it$/,
        )
      }),
      { numRuns: 20 },
    )
  })

  it('intake output holds only the fields the contract defines', () => {
    fc.assert(
      fc.property(leadArb, (lead) => {
        const parsed = leadInputSchema.safeParse(without(lead, ['sessionInformation']))
        expect(parsed.success).toBe(true)
        if (parsed.success)
          expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(without(lead, ['sessionInformation'])))
      }),
      { numRuns: 20 },
    )
  })

  it('a partner reads unknown extra fields leniently', () => {
    fc.assert(
      fc.property(leadArb, (lead) => {
        const parsed = leadSchema.parse(set(lead, ['personalInformation', 'middleName'], 'Q'))
        expect((parsed.personalInformation as Record<string, unknown>).middleName).toBe('Q')
      }),
    )
  })
})

describe('docs/partner-interface.md partner reply', () => {
  it('parses every generated valid reply', () => {
    fc.assert(
      fc.property(
        partnerReplyArb,
        (reply) => void expect(fieldsOf(partnerReplySchema.safeParse(reply))).toEqual([]),
      ),
    )
  })

  it('requires lead_id on every status', () => {
    fc.assert(
      fc.property(
        partnerReplyArb,
        (reply) =>
          void expect(fieldsOf(partnerReplySchema.safeParse(without(reply, ['lead_id'])))).toContain(
            'lead_id',
          ),
      ),
    )
  })

  it('status must be approved, rejected or error', () => {
    const result = partnerReplySchema.safeParse({ status: 'maybe', lead_id: 'x' })
    expect(fieldsOf(result)).toContain('status')
  })

  it('"reason: used with rejected and error"', () => {
    for (const status of ['rejected', 'error']) {
      expect(fieldsOf(partnerReplySchema.safeParse({ status, lead_id: 'x' }))).toContain('reason')
    }
  })

  it('"offers: with approved", at least one', () => {
    expect(fieldsOf(partnerReplySchema.safeParse({ status: 'approved', lead_id: 'x' }))).toContain('offers')
    expect(
      fieldsOf(partnerReplySchema.safeParse({ status: 'approved', lead_id: 'x', offers: [] })),
    ).toContain('offers')
  })

  it('offer rate and click_url are required; rate non-negative; click_url absolute http(s)', () => {
    const offer = { rate: 10, click_url: 'https://partner.example.com/c/1' }
    const reply = (o: unknown) => ({ status: 'approved', lead_id: 'x', offers: [o] })
    expect(partnerReplySchema.safeParse(reply(offer)).success).toBe(true)
    expect(fieldsOf(partnerReplySchema.safeParse(reply({ click_url: offer.click_url })))).toContain(
      'offers.0.rate',
    )
    expect(fieldsOf(partnerReplySchema.safeParse(reply({ rate: 1 })))).toContain('offers.0.click_url')
    expect(fieldsOf(partnerReplySchema.safeParse(reply({ ...offer, rate: -1 })))).toContain('offers.0.rate')
    for (const bad of ['/relative', 'javascript:alert(1)', 'ftp://x.example.com/']) {
      expect(fieldsOf(partnerReplySchema.safeParse(reply({ ...offer, click_url: bad })))).toContain(
        'offers.0.click_url',
      )
    }
  })

  it('click_url and logo_src are https; http only to a loopback host; never javascript: or data:', () => {
    const reply = (o: unknown) => ({ status: 'approved', lead_id: 'x', offers: [o] })
    const base = { rate: 1, click_url: 'https://p.example.com/c' }
    for (const field of ['click_url', 'logo_src']) {
      for (const bad of [
        'http://p.example.com/x',
        'http://10.0.0.5/x',
        'javascript:alert(document.cookie)',
        'data:image/svg+xml,<svg onload=alert(1)>',
        '//p.example.com/x',
      ]) {
        expect(fieldsOf(partnerReplySchema.safeParse(reply({ ...base, [field]: bad }))), bad).toContain(
          `offers.0.${field}`,
        )
      }
      for (const good of [
        'https://p.example.com/x',
        'http://127.0.0.1:8788/x',
        'http://[::1]:80/x',
        'http://localhost/x',
      ]) {
        expect(partnerReplySchema.safeParse(reply({ ...base, [field]: good })).success, good).toBe(true)
      }
    }
  })

  it('"conditional: required when the partner returns several types of offers"', () => {
    const a = { rate: 1, click_url: 'https://p.example.com/a', product_type: 'personal_loan' }
    const b = { rate: 2, click_url: 'https://p.example.com/b', product_type: 'debt_relief' }
    const fields = fieldsOf(
      partnerReplySchema.safeParse({ status: 'approved', lead_id: 'x', offers: [a, b] }),
    )
    for (const f of ['name', 'display_name', 'offer_details', 'logo_src']) {
      expect(fields).toContain(`offers.0.${f}`)
      expect(fields).toContain(`offers.1.${f}`)
    }
    // One offer type: the operator's partner team may fill presentation in by hand.
    expect(partnerReplySchema.safeParse({ status: 'approved', lead_id: 'x', offers: [a] }).success).toBe(true)
  })
})
