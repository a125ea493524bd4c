/** @module Data attributes to embed options: kebab-case names, strict readers, warnings that say the fix. */
import { describe, expect, it } from 'vitest'
import {
  MAX_ISSUER_LENGTH,
  MAX_SUB_ID_LENGTH,
  MAX_SUB_IDS,
  MAX_VEHICLES,
  MIN_VEHICLES,
} from '../../src/contract/search-fields.ts'
import { parseDataAttributes } from '../../src/embed/data-attributes.ts'

function element(attributes: Record<string, string>): HTMLElement {
  const div = document.createElement('div')
  div.id = 'quotes'
  div.setAttribute('data-offer-widget', '')
  for (const [name, value] of Object.entries(attributes)) div.setAttribute(name, value)
  return div
}

describe('parseDataAttributes', () => {
  it('reads every option from its kebab-case attribute', () => {
    const { options, warnings } = parseDataAttributes(
      element({
        'data-endpoint': 'https://offers.example.com',
        'data-source': 'second-look',
        'data-zip-code': '94107',
        'data-date-of-birth': '1988-04-21',
        'data-current-issuer': 'notinsured',
        'data-number-of-vehicles': '2',
        'data-is-home-owner': 'true',
        'data-is-military': 'no',
        'data-sub-id': 'newsletter, top-slot',
        'data-form': 'always',
        'data-preview': '',
        'data-theme': 'dark',
        'data-theme-variables': '{"--ow-color-accent":"#0a7"}',
        'data-labels': '{"heading":"Your quotes"}',
        'data-empty-state': 'hide',
        'data-disclosure-url': 'https://publisher.example/disclosure',
        'data-initial-offers': '4',
        'data-heading-level': '3',
        'data-attach': '{"uuid":"u-1","accessToken":"t-1"}',
        'data-nonce': 'abc',
        'data-class-name': 'wide',
      }),
    )
    expect(warnings).toEqual([])
    expect(options).toEqual({
      endpoint: 'https://offers.example.com',
      source: 'second-look',
      search: {
        zipCode: '94107',
        dateOfBirth: '1988-04-21',
        currentIssuer: 'notinsured',
        numberOfVehicles: 2,
        isHomeOwner: true,
        isMilitary: false,
        clientTags: { subId: ['newsletter', 'top-slot'] },
      },
      form: 'always',
      preview: true,
      theme: 'dark',
      themeVariables: { '--ow-color-accent': '#0a7' },
      labels: { heading: 'Your quotes' },
      emptyState: 'hide',
      disclosureUrl: 'https://publisher.example/disclosure',
      initialOffers: 4,
      headingLevel: 3,
      attach: { uuid: 'u-1', accessToken: 't-1' },
      nonce: 'abc',
      className: 'wide',
    })
  })

  it.each([
    ['data-zip-code', '9410', 'a 5-digit ZIP code (or ZIP+4), e.g. "94107"'],
    ['data-number-of-vehicles', 'two', 'a whole number from 1 to 20'],
    ['data-number-of-vehicles', '21', 'a whole number from 1 to 20'],
    ['data-date-of-birth', '1988-02-30', 'YYYY-MM-DD'],
    ['data-date-of-birth', '2999-01-01', 'a past date'],
    // The form's rules (contract/search-fields.ts): not before 1900, a driver 16 to 100 years old.
    ['data-date-of-birth', '1899-12-31', 'a past date'],
    ['data-date-of-birth', `${new Date().getFullYear() - 5}-01-01`, 'of a driver 16 to 100 years old'],
    ['data-is-home-owner', 'maybe', '"true" or "false"'],
    ['data-theme', 'blue', '"light" or "dark"'],
    ['data-form', 'sometimes', '"auto" or "always" or "never"'],
    ['data-endpoint', 'javascript:alert(1)', 'or "" for this page\'s origin'],
    // Other origins written as paths: the URL parser reads them as //evil.example.
    ['data-endpoint', '//evil.example', 'the BFF base URL'],
    ['data-endpoint', '/\\evil.example', 'the BFF base URL'],
    ['data-endpoint', '/\t/evil.example', 'the BFF base URL'],
    ['data-endpoint', '/\n/evil.example', 'the BFF base URL'],
    ['data-labels', '{heading:1}', 'JSON like'],
    ['data-theme-variables', '{"color":"red"}', '--ow-color-accent'],
    // Written as every other choice is: each value as the attribute's text.
    ['data-heading-level', '1', '"2" or "3" or "4" or "5"'],
    ['data-heading-level', '3.0', '"2" or "3" or "4" or "5"'],
    ['data-source', 'partners', '"offer-search" or "second-look"'],
    ['data-current-issuer', 'state farm', 'an id from /api/issuers'],
    ['data-sub-id', 'a,,b', 'up to 10 comma-separated tags'],
    ['data-sub-id', 'a,b,c,d,e,f,g,h,i,j,k', 'up to 10 comma-separated tags'],
    ['data-sub-id', 'a,', 'up to 10 comma-separated tags of 1 to 100 characters'],
    ['data-labels', '["heading"]', 'JSON like'],
    ['data-labels', 'null', 'JSON like'],
    ['data-labels', '{"heading":1}', 'JSON like'],
    ['data-attach', '{"uuid":"u-1"}', 'JSON {"uuid"'],
    ['data-disclosure-url', 'javascript:alert(1)', 'advertiser disclosure page'],
    ['data-initial-offers', '0', 'a whole number from 1 to 99'],
    ['data-initial-offers', 'three', 'a whole number from 1 to 99'],
  ])('drops %s="%s" with a warning naming the attribute and the fix', (name, value, fix) => {
    const { options, warnings } = parseDataAttributes(element({ [name]: value, 'data-theme-x': '' }))
    expect(options).toEqual({})
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`${name}="${value}"`)
    expect(warnings[0]).toContain('on <div#quotes>')
    expect(warnings[0]).toContain(fix)
  })

  it("reads the search fields' bounds the BFF and the form use (contract/search-fields.ts)", () => {
    const read = (name: string, value: string) =>
      parseDataAttributes(element({ [name]: value })).options.search
    expect(read('data-number-of-vehicles', String(MIN_VEHICLES))).toBeDefined()
    expect(read('data-number-of-vehicles', String(MAX_VEHICLES))).toBeDefined()
    expect(read('data-number-of-vehicles', String(MIN_VEHICLES - 1))).toBeUndefined()
    expect(read('data-number-of-vehicles', String(MAX_VEHICLES + 1))).toBeUndefined()
    expect(read('data-current-issuer', 'x'.repeat(MAX_ISSUER_LENGTH))).toBeDefined()
    expect(read('data-current-issuer', 'x'.repeat(MAX_ISSUER_LENGTH + 1))).toBeUndefined()
    expect(read('data-sub-id', 'x'.repeat(MAX_SUB_ID_LENGTH))).toBeDefined()
    expect(read('data-sub-id', 'x'.repeat(MAX_SUB_ID_LENGTH + 1))).toBeUndefined()
    expect(read('data-sub-id', Array(MAX_SUB_IDS).fill('t').join(','))).toBeDefined()
    expect(
      read(
        'data-sub-id',
        Array(MAX_SUB_IDS + 1)
          .fill('t')
          .join(','),
      ),
    ).toBeUndefined()
  })

  it('keeps only uuid and accessToken from data-attach', () => {
    const { options } = parseDataAttributes(
      element({ 'data-attach': '{"uuid":"u-1","accessToken":"t-1","endpoint":"https://evil.example"}' }),
    )
    expect(options).toEqual({ attach: { uuid: 'u-1', accessToken: 't-1' } })
  })

  it('keeps the valid attributes when one is bad', () => {
    const { options, warnings } = parseDataAttributes(element({ 'data-zip-code': 'x', 'data-theme': 'dark' }))
    expect(options).toEqual({ theme: 'dark' })
    expect(warnings).toHaveLength(1)
  })

  it('suggests the right name for a near miss and ignores unrelated data attributes', () => {
    const { warnings } = parseDataAttributes(element({ 'data-zipcode': '94107', 'data-tracking': 'x' }))
    expect(warnings).toEqual([
      'offer-widget: data-zipcode on <div#quotes> is not an option; did you mean data-zip-code?',
    ])
  })

  it('data-analytics: "dataLayer" is read; another value warns with its fix and is dropped', () => {
    expect(parseDataAttributes(element({ 'data-analytics': 'dataLayer' }))).toEqual({
      options: { analytics: 'dataLayer' },
      warnings: [],
    })
    expect(parseDataAttributes(element({ 'data-analytics': 'ga4' }))).toEqual({
      options: {},
      warnings: [
        'offer-widget: data-analytics="ga4" on <div#quotes> is invalid and was ignored; write "dataLayer".',
      ],
    })
  })
})
