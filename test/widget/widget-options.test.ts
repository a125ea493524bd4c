/**
 * @module The widget's options table (src/widget/widget-options.ts) and its two readers kept together: every
 * option a page passes as data is in the table, every option in it is read from its attribute
 * (embed/data-attributes.ts) and as a prop (widget/parse-props.ts), and both say a bad value's fix in the
 * table's words. A new prop, attribute or reader that skips the table fails here.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { ATTRIBUTE_OPTIONS } from '../../src/embed/attribute-options.ts'
import { attributeOf, OPTION_ATTRIBUTES, parseDataAttributes } from '../../src/embed/data-attributes.ts'
import { attributeChoices, propChoices } from '../../src/widget/choice-words.ts'
import { parseProps, searchDataWarnings } from '../../src/widget/parse-props.ts'
import { PROP_OPTIONS } from '../../src/widget/prop-options.ts'
import {
  attributeOptionsOf,
  type DataProp,
  type OptionName,
  propOptionsOf,
  type SearchPath,
  WIDGET_OPTIONS,
  type WidgetOption,
  whatToWrite,
} from '../../src/widget/widget-options.ts'

const today = new Date('2026-11-26T12:00:00Z')
const OPTIONS: readonly WidgetOption[] = WIDGET_OPTIONS
const attributeOptions = OPTIONS.filter((option) => !option.propOnly)

/** A good value of every option (the record's type makes a new option add one). */
const SAMPLES: Record<OptionName, unknown> = {
  endpoint: 'https://offers.example.com',
  source: 'second-look',
  'search.zipCode': '94107-1234',
  'search.dateOfBirth': '1988-04-21',
  'search.currentIssuer': 'granite-mutual',
  'search.numberOfVehicles': 20,
  'search.isHomeOwner': false,
  'search.isMilitary': true,
  'search.clientTags.subId': ['newsletter', 'top-slot'],
  form: 'never',
  preview: true,
  theme: 'dark',
  themeVariables: { '--ow-color-accent': '#0a7' },
  labels: { heading: 'Your quotes', loanHeading: 'Your loan' },
  emptyState: 'hide',
  disclosureUrl: 'https://example.com/disclosure',
  initialOffers: 99,
  headingLevel: 5,
  attach: { uuid: 'u-1', accessToken: 't-1' },
  analytics: 'dataLayer',
  placement: 'home-hero',
  injectStyles: false,
  nonce: 'abc',
  className: 'wide',
}

/** A value as an attribute writes it: text as is, a list comma-separated, an object as JSON. */
function attributeText(value: unknown): string {
  if (Array.isArray(value)) return value.join(',')
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

function mountPoint(name: string, value: string): HTMLElement {
  const div = document.createElement('div')
  div.setAttribute('data-offer-widget', '')
  div.setAttribute(name, value)
  return div
}

/** `search.clientTags.subId` -> `{ search: { clientTags: { subId: value } } }` */
function nested(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as never) as never
}

describe('the widget options table', () => {
  it("is what the script tag's readers read (src/embed/attribute-options.ts, written by npm run generate)", () => {
    expect(ATTRIBUTE_OPTIONS, 'src/embed/attribute-options.ts is stale: run npm run generate').toEqual(
      attributeOptionsOf(WIDGET_OPTIONS),
    )
    // What each attribute's warning says: the table's words, a choice's as its values written out.
    for (const option of OPTIONS.filter(({ propOnly }) => !propOnly)) {
      const read = ATTRIBUTE_OPTIONS[option.name]
      expect(read?.write ?? attributeChoices(read?.values ?? []), option.name).toBe(
        whatToWrite(option, 'attribute'),
      )
    }
  })

  it('is what the props parser reads (src/widget/prop-options.ts, written by npm run generate)', () => {
    expect(PROP_OPTIONS, 'src/widget/prop-options.ts is stale: run npm run generate').toEqual(
      propOptionsOf(WIDGET_OPTIONS),
    )
    // What each display prop's warning says: the table's words, a choice's as its values written out.
    for (const option of OPTIONS.filter(({ name }) => !name.startsWith('search.'))) {
      const read = PROP_OPTIONS[option.name]
      expect(read?.write ?? propChoices(read?.values ?? []), option.name).toBe(whatToWrite(option, 'prop'))
    }
  })

  it('names every prop a page passes as data and every search field, once', () => {
    expectTypeOf<OptionName>().toEqualTypeOf<DataProp | SearchPath>()
    const names = OPTIONS.map((option) => option.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it('has an attribute reader for every option but the props the script tag sets itself, and no other', () => {
    expect([...OPTION_ATTRIBUTES]).toEqual(
      attributeOptions.map((option) => [attributeOf(option.name), option.name]),
    )
    expect(OPTIONS.filter((option) => option.propOnly).map((option) => option.name)).toEqual(['injectStyles'])
  })

  it.each(attributeOptions.map((option) => [option.name, option] as const))(
    'reads %s from its attribute',
    (name, option) => {
      const attribute = `data-${attributeOf(name)}`
      const parsed = parseDataAttributes(mountPoint(attribute, attributeText(SAMPLES[option.name])))
      expect(parsed).toEqual({ options: nested(name, SAMPLES[option.name]), warnings: [] })
    },
  )

  it.each(OPTIONS.map((option) => [option.name, option] as const))('reads %s as a prop', (name, option) => {
    const value = SAMPLES[option.name]
    if (name.startsWith('search.')) {
      const { search } = nested(name, value) as { search: Record<string, unknown> }
      expect(searchDataWarnings(search, today)).toEqual([])
      return
    }
    const parsed = parseProps({ [name]: value })
    expect(parsed.warnings).toEqual([])
    expect(parsed.props).toEqual({ [name]: value })
  })
})

describe("a refused value's fix, in the table's words", () => {
  /** Text no reader of these options takes; `nonce` and `className` take any text. */
  const refused = attributeOptions
    .filter((option) => option.name !== 'nonce' && option.name !== 'className')
    .map((option) => [option.name, option, option.type === 'list' ? ',' : '%'] as const)

  it.each(refused)('data attribute of %s', (name, option, text) => {
    const attribute = `data-${attributeOf(name)}`
    const { options, warnings } = parseDataAttributes(mountPoint(attribute, text))
    expect(options).toEqual({})
    expect(warnings).toEqual([
      `offer-widget: ${attribute}="${text}" on <div> is invalid and was ignored; write ${whatToWrite(option, 'attribute')}.`,
    ])
  })

  it.each(OPTIONS.filter((option) => !option.name.startsWith('search.')).map((o) => [o.name, o] as const))(
    'prop %s',
    (name, option) => {
      const parsed = parseProps({ [name]: 0.5 })
      expect(parsed.props).toEqual({})
      expect(parsed.warnings).toHaveLength(1)
      expect(parsed.warnings[0]).toMatch(new RegExp(`^offer-widget: <OfferWidget ${name}=\\{0.5\\}> `))
      expect(parsed.warnings[0]).toContain(`; write ${whatToWrite(option, 'prop')}.`)
    },
  )

  it('in the syntax of each: a prop as code, an attribute as text', () => {
    const option = (name: OptionName) => OPTIONS.find((o) => o.name === name) as WidgetOption
    expect(whatToWrite(option('headingLevel'), 'prop')).toBe('2 or 3 or 4 or 5')
    expect(whatToWrite(option('headingLevel'), 'attribute')).toBe('"2" or "3" or "4" or "5"')
    expect(whatToWrite(option('preview'), 'prop')).toBe('true or false')
    expect(whatToWrite(option('initialOffers'), 'prop')).toBe('a whole number from 1 to 99, e.g. 3')
    expect(whatToWrite(option('initialOffers'), 'attribute')).toBe('a whole number from 1 to 99, e.g. "3"')
    expect(whatToWrite(option('search.clientTags.subId'), 'attribute')).toBe(
      'up to 10 comma-separated tags of 1 to 100 characters, e.g. "newsletter,top-slot"',
    )
  })
})
