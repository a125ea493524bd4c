/**
 * @module `<OfferWidget>`'s props parsed once at the npm package's door (src/widget/parse-props.ts): what
 * to search for as one kind, bad display props dropped for their defaults with a warning naming the prop
 * and the fix, search data checked against the BFF's schema but sent as given, and props that cannot apply
 * together named with the one that wins. docs/decisions/0104-props-parsed-once.md.
 */
import { render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { OfferWidget, type OfferWidgetProps } from '../../src/widget/index.ts'
import { parseProps, searchDataWarnings } from '../../src/widget/parse-props.ts'

const today = new Date('2026-11-26T12:00:00Z')

const attach = { uuid: '5b1c2f0e-0000-4000-8000-000000000001', accessToken: 'token' }

describe('parseProps', () => {
  it('reads what to search for as one kind: attach wins, then the source decides', () => {
    expect(parseProps({ search: { zipCode: '94107' } }).request).toEqual({
      kind: 'search',
      search: { zipCode: '94107' },
    })
    expect(parseProps({ source: 'second-look', lead: undefined }).request).toEqual({
      kind: 'lead',
      lead: undefined,
    })
    expect(parseProps({ attach, search: { zipCode: '94107' } }).request).toEqual({ kind: 'attach', attach })
  })

  it('valid props pass whole, with no warning', () => {
    const props: OfferWidgetProps = {
      endpoint: 'https://offers.example.com',
      search: {
        zipCode: '94107',
        dateOfBirth: '1988-04-21',
        numberOfVehicles: 2,
        clientTags: { subId: ['a'] },
      },
      form: 'always',
      theme: 'dark',
      themeVariables: { '--ow-color-accent': '#0a7' },
      labels: { heading: 'Your quotes' },
      initialOffers: 5,
      headingLevel: 3,
      disclosureUrl: 'https://example.com/disclosure',
      analytics: 'dataLayer',
    }
    const parsed = parseProps(props)
    expect(parsed.warnings).toEqual([])
    expect(parsed.props).toEqual(props)
  })

  it.each([
    ['initialOffers', 0, 'a whole number from 1 to 99'],
    ['initialOffers', 2.5, 'a whole number from 1 to 99'],
    ['headingLevel', 7, '2 or 3 or 4 or 5'],
    ['theme', 'blue', '"light" or "dark"'],
    ['form', 'sometimes', '"auto" or "always" or "never"'],
    ['source', 'offers', '"offer-search" or "second-look"'],
    ['endpoint', 'javascript:alert(1)', 'the BFF base URL'],
    ['endpoint', '//evil.example', 'the BFF base URL'],
    ['endpoint', '/\\evil.example', 'the BFF base URL'],
    ['endpoint', '/\t/evil.example', 'the BFF base URL'],
    ['disclosureUrl', '/disclosure', 'the URL of your advertiser disclosure page'],
    ['attach', { uuid: 'x' }, 'the { uuid, accessToken, rateTable } createServerSearch returned'],
    ['analytics', 'gtag', '"dataLayer"'],
  ])('drops %s=%j for its default and says what to write', (key, value, fix) => {
    const parsed = parseProps({ [key]: value } as OfferWidgetProps)
    expect(parsed.props).not.toHaveProperty(key)
    expect(parsed.warnings).toHaveLength(1)
    expect(parsed.warnings[0]).toMatch(
      new RegExp(`^offer-widget: <OfferWidget ${key}=\\{.+\\}> is invalid and was ignored; write `),
    )
    expect(parsed.warnings[0]).toContain(fix)
  })

  it('keeps the known keys of themeVariables and labels and names the rest', () => {
    const parsed = parseProps({
      themeVariables: { '--ow-radius': '0', color: 'red' } as never,
      labels: { heading: 'Quotes', title: 'x' } as never,
    })
    expect(parsed.props.themeVariables).toEqual({ '--ow-radius': '0' })
    expect(parsed.props.labels).toEqual({ heading: 'Quotes' })
    expect(parsed.warnings).toHaveLength(2)
    expect(parsed.warnings[0]).toMatch(
      /<OfferWidget themeVariables> ignored color: each key must be one of --ow-/,
    )
    expect(parsed.warnings[1]).toMatch(
      /<OfferWidget labels> ignored title: each key must be one of .*heading/,
    )
  })

  it("checks search data by the form's rules, names the field, and sends it as given", () => {
    const search = { zipCode: '9410', numberOfVehicles: 40 }
    const parsed = parseProps({ search })
    expect(parsed.props.search).toBe(search)
    expect(parsed.warnings).toEqual([])
    expect(searchDataWarnings(search, today)).toEqual([
      'offer-widget: <OfferWidget search.zipCode={"9410"}>: Enter a 5-digit ZIP code, like 94107. (sent as given; if the BFF refuses it, the form asks the visitor).',
      'offer-widget: <OfferWidget search.numberOfVehicles={40}>: Choose a number of vehicles from 1 to 20. (sent as given; if the BFF refuses it, the form asks the visitor).',
    ])
    expect(searchDataWarnings({ zipCode: 94107 }, today)).toEqual([
      'offer-widget: <OfferWidget search.zipCode={94107}> must be a string.',
    ])
    expect(searchDataWarnings({ zip: '94107' }, today)[0]).toMatch(
      /^offer-widget: <OfferWidget search.zip=\{"94107"\}> is not a search field; the fields are zipCode, /,
    )
    // A date of birth is judged against the day it is read on.
    expect(searchDataWarnings({ dateOfBirth: '2020-01-01' }, today)[0]).toContain('between 16 and 100')
    expect(searchDataWarnings('x', today)[0]).toContain("write an object like { zipCode: '94107' }")
  })

  it('names props that cannot apply together, and the one that wins', () => {
    expect(parseProps({ lead: { loanAmount: 1 } as never }).warnings).toEqual([
      expect.stringContaining(
        '<OfferWidget lead> is read only with source="second-look"; add source="second-look"',
      ),
    ])
    expect(parseProps({ source: 'second-look', search: { zipCode: '94107' } }).warnings).toEqual([
      expect.stringContaining(
        '<OfferWidget search> is not read with source="second-look"; pass the loan lead as lead',
      ),
    ])
    expect(parseProps({ attach, search: { zipCode: '94107' } }).warnings).toEqual([
      expect.stringContaining('got attach with search; attach wins'),
    ])
  })
})

describe('<OfferWidget> from the package', () => {
  afterEach(() => vi.restoreAllMocks())

  it('renders with the default for a bad prop and warns once per page, however often it renders', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const props = {
      form: 'always',
      headingLevel: 9,
      search: { zipCode: '9410' },
    } as unknown as OfferWidgetProps
    const { rerender } = render(<OfferWidget {...props} />)
    rerender(<OfferWidget {...props} />)
    render(<OfferWidget {...props} />)
    expect(warn.mock.calls.filter(([line]) => String(line).includes('headingLevel={9}'))).toHaveLength(1)
    // Search data is judged after the render, in the browser (a server render reads no clock).
    expect(warn.mock.calls.filter(([line]) => String(line).includes('search.zipCode={"9410"}'))).toHaveLength(
      1,
    )
    // The form's heading is at the default level (2), not <h9>.
    expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThan(0)
  })
})
