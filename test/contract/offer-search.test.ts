import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toFieldIssues } from '../../src/contract/common.ts'
import {
  issuerSchema,
  offerSchema,
  offerSearchInputSchema,
  offerSearchRequestSchema,
  rateTableSchema,
  withZipKey,
} from '../../src/contract/offer-search.ts'
import {
  issuerArb,
  OFFER_REQUIRED_FIELDS,
  offerArb,
  offerSearchRequestArb,
  rateTableArb,
} from './support/arbitraries.ts'

function fieldsOf(
  result: { success: true } | { success: false; error: Parameters<typeof toFieldIssues>[0] },
): string[] {
  return result.success ? [] : toFieldIssues(result.error).map((i) => i.field)
}

function without<T extends Record<string, unknown>>(value: T, path: string[]): T {
  const copy = structuredClone(value)
  let node: Record<string, unknown> = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>
  delete node[path.at(-1) as string]
  return copy
}

describe('docs/offer-search-api.md rate table', () => {
  it('parses every generated valid rate table', () => {
    fc.assert(
      fc.property(rateTableArb, (table) => void expect(rateTableSchema.safeParse(table).success).toBe(true)),
    )
  })

  it('keeps unknown extra fields (the upstream may add fields)', () => {
    fc.assert(
      fc.property(rateTableArb, (table) => {
        const parsed = rateTableSchema.parse({ ...table, futureField: { nested: 1 } })
        expect((parsed as Record<string, unknown>).futureField).toEqual({ nested: 1 })
      }),
    )
  })

  const required = ['uuid', 'leadUuid', 'offers', 'pendingResponses', 'createdAt'] as const
  it.each(required)('fails naming %s when it is removed', (field) => {
    fc.assert(
      fc.property(
        rateTableArb,
        (table) => void expect(fieldsOf(rateTableSchema.safeParse(without(table, [field])))).toContain(field),
      ),
    )
  })

  it('names the offer field path when an offer loses a required field', () => {
    fc.assert(
      fc.property(
        rateTableArb.filter((t) => t.offers.length > 0),
        (table) => {
          const broken = structuredClone(table)
          delete (broken.offers[0] as Record<string, unknown>).rank
          expect(fieldsOf(rateTableSchema.safeParse(broken))).toContain('offers.0.rank')
        },
      ),
    )
  })

  it('rejects a malformed uuid', () => {
    fc.assert(
      fc.property(
        rateTableArb,
        fc.string().filter((s) => !/^[0-9a-f-]{36}$/i.test(s)),
        (table, bad) => {
          expect(fieldsOf(rateTableSchema.safeParse({ ...table, uuid: bad }))).toContain('uuid')
        },
      ),
    )
  })
})

describe('docs/offer-search-api.md offer', () => {
  it.each(OFFER_REQUIRED_FIELDS)('requires %s', (field) => {
    fc.assert(
      fc.property(
        offerArb,
        (offer) => void expect(fieldsOf(offerSchema.safeParse(without(offer, [field])))).toContain(field),
      ),
    )
  })

  it('"productVersions: Present in the create response" and pixels "Present in the polling response": both optional', () => {
    fc.assert(
      fc.property(offerArb, (offer) => {
        const bare = without(without(offer, ['productVersions']), ['impressionTrackingPixelUrls'])
        expect(offerSchema.safeParse(bare).success).toBe(true)
      }),
    )
  })

  it('still parses an offer whose url is javascript: so the widget can render it without the link', () => {
    fc.assert(
      fc.property(
        offerArb,
        (offer) =>
          void expect(offerSchema.safeParse({ ...offer, url: 'javascript:alert(1)' }).success).toBe(true),
      ),
    )
  })

  it('rejects a non-integer rank ("rank | integer")', () => {
    fc.assert(
      fc.property(
        offerArb,
        (offer) => void expect(fieldsOf(offerSchema.safeParse({ ...offer, rank: 1.5 }))).toContain('rank'),
      ),
    )
  })
})

describe('docs/offer-search-api.md issuer', () => {
  it('parses generated issuers and requires id', () => {
    fc.assert(
      fc.property(issuerArb, (issuer) => {
        expect(issuerSchema.safeParse(issuer).success).toBe(true)
        expect(fieldsOf(issuerSchema.safeParse(without(issuer, ['id'])))).toContain('id')
      }),
    )
  })
})

describe('docs/offer-search-api.md offer search request', () => {
  it('parses every generated valid request', () => {
    fc.assert(
      fc.property(
        offerSearchRequestArb,
        (req) => void expect(offerSearchRequestSchema.safeParse(req).success).toBe(true),
      ),
    )
  })

  it.each([
    [['productTypes'], 'productTypes'],
    [['sessionInformation'], 'sessionInformation'],
    [['sessionInformation', 'ipAddress'], 'sessionInformation.ipAddress'],
    [['sessionInformation', 'userAgent'], 'sessionInformation.userAgent'],
  ])('"%s | required": removing it fails naming %s', (path, field) => {
    fc.assert(
      fc.property(
        offerSearchRequestArb,
        (req) =>
          void expect(fieldsOf(offerSearchRequestSchema.safeParse(without(req, path)))).toContain(field),
      ),
    )
  })

  it('rejects an ipAddress that is not an IP', () => {
    const result = offerSearchRequestSchema.safeParse({
      productTypes: ['AutomobileInsurance'],
      sessionInformation: { ipAddress: 'localhost', userAgent: 'UA' },
    })
    expect(fieldsOf(result)).toContain('sessionInformation.ipAddress')
  })

  it('rejects a dateOfBirth that is not a real YYYY-MM-DD date', () => {
    for (const bad of ['2001-02-30', '1990-13-01', '19900101', '1990-1-1']) {
      const result = offerSearchInputSchema.safeParse({ personalInformation: { dateOfBirth: bad } })
      expect(fieldsOf(result)).toContain('personalInformation.dateOfBirth')
    }
    expect(
      offerSearchInputSchema.safeParse({ personalInformation: { dateOfBirth: '2000-02-29' } }).success,
    ).toBe(true)
  })
})

describe('the zipcode / zipCode ambiguity of docs/offer-search-api.md', () => {
  it('accepts either spelling on input', () => {
    expect(offerSearchInputSchema.safeParse({ personalInformation: { zipCode: '30301' } }).success).toBe(true)
    expect(offerSearchInputSchema.safeParse({ personalInformation: { zipcode: '30301' } }).success).toBe(true)
  })

  it('rejects two spellings that disagree, naming the field', () => {
    const result = offerSearchInputSchema.safeParse({
      personalInformation: { zipCode: '30301', zipcode: '10001' },
    })
    expect(fieldsOf(result)).toContain('personalInformation.zipCode')
  })

  it('sends exactly one spelling, the configured one', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{5}$/),
        fc.constantFrom('zipCode', 'zipcode'),
        fc.constantFrom('zipCode' as const, 'zipcode' as const),
        (zip, inKey, outKey) => {
          const input: { zipCode?: string; zipcode?: string; dateOfBirth: string } = {
            [inKey]: zip,
            dateOfBirth: '1990-01-01',
          }
          const out = withZipKey(input, outKey) as Record<string, unknown>
          expect(out[outKey]).toBe(zip)
          expect(Object.keys(out).filter((k) => k.toLowerCase() === 'zipcode')).toEqual([outKey])
          expect(out.dateOfBirth).toBe('1990-01-01')
        },
      ),
    )
  })
})
