/**
 * @module The widget's options, once (issue 45, "one table describes the widget's options for props and
 * attributes"): each option's name (the `<OfferWidget>` prop, or a search field's path under `search`, whose
 * attribute is `attributeOf` it in embed/data-attributes.ts), its type, what it accepts, and what to write
 * when a value is refused, in each one's syntax (`whatToWrite`). Neither bundle carries this module:
 * `npm run generate` (scripts/generate-options.ts) writes what the props parser and the attribute readers
 * each need of it (`propOptionsOf`, `attributeOptionsOf`), and test/widget/widget-options.test.ts fails
 * when those files say other than the table. The docs site's reference pages read it too.
 */
import { NOT_INSURED } from '../contract/rate-table.ts'
import {
  MAX_DRIVER_AGE,
  MAX_SUB_ID_LENGTH,
  MAX_SUB_IDS,
  MAX_VEHICLES,
  MIN_DRIVER_AGE,
  MIN_VEHICLES,
  ZIP_CODE_SAYS,
} from '../contract/search-fields.ts'
import { attributeChoices, propChoices } from './choice-words.ts'
import { DEFAULT_LABELS } from './labels.ts'
import type { OfferWidgetProps } from './OfferWidget.tsx'
import type { SearchData } from './search-input.ts'
import { THEME_VARIABLES } from './theme.ts'

/** Props a page passes as data, one option each; `search` is split into its fields, `lead` is its own form. */
export type DataProp = Exclude<keyof OfferWidgetProps, `on${string}` | 'search' | 'lead' | 'pixelTracker'>
/** A search field's path under `search`; its attribute is the last segment's (`data-sub-id`). */
export type SearchPath = `search.${Exclude<keyof SearchData, 'clientTags'>}` | 'search.clientTags.subId'

type Value = string | number | boolean

export interface WidgetOption {
  /** The prop (`theme`), or a search field's path (`search.zipCode`): the path in the embed's options too. */
  readonly name: DataProp | SearchPath
  /**
   * The prop's type. An attribute writes it as text: a number or a boolean as written (`"3"`, `"true"`),
   * an object as JSON, a list comma-separated.
   */
  readonly type: 'string' | 'number' | 'boolean' | 'object' | 'list'
  /** Every value it takes, when they are few: what to write lists them. */
  readonly values?: readonly Value[]
  /** Whole numbers from the first to the second, both included: what to write says so. */
  readonly range?: readonly [number, number]
  /** The keys an object may have, each with a string value, and a pattern more keys may match. */
  readonly keys?: readonly string[]
  readonly moreKeys?: RegExp
  /** What to write, read after "write " in a warning; without it, `values` or `range` says it. */
  readonly write?: string
  /** The attribute's own words, where its text is not the prop's value written out (JSON, a list). */
  readonly attributeWrite?: string
  /** A good value, shown after the words in each one's syntax: `e.g. 3` for a prop, `e.g. "3"` for an attribute. */
  readonly example?: Value | readonly string[]
  /** Read only as a prop: the script tag sets it itself (it adopts the widget's CSS into its shadow root). */
  readonly propOnly?: true
}

const YES_NO = [true, false]

/** Every option, in the order the attribute readers list them (`<offer-widget>`'s `observedAttributes`). */
export const WIDGET_OPTIONS = [
  {
    name: 'endpoint',
    type: 'string',
    write: 'the BFF base URL, e.g. "https://offers.example.com", or "" for this page\'s origin',
  },
  { name: 'source', type: 'string', values: ['offer-search', 'second-look'] },
  { name: 'search.zipCode', type: 'string', write: ZIP_CODE_SAYS, example: '94107' },
  {
    name: 'search.dateOfBirth',
    type: 'string',
    write: `a past date as YYYY-MM-DD, of a driver ${MIN_DRIVER_AGE} to ${MAX_DRIVER_AGE} years old`,
    example: '1988-04-21',
  },
  { name: 'search.currentIssuer', type: 'string', write: `an id from /api/issuers, or "${NOT_INSURED}"` },
  {
    name: 'search.numberOfVehicles',
    type: 'number',
    range: [MIN_VEHICLES, MAX_VEHICLES],
    example: 2,
  },
  { name: 'search.isHomeOwner', type: 'boolean', values: YES_NO },
  { name: 'search.isMilitary', type: 'boolean', values: YES_NO },
  {
    name: 'search.clientTags.subId',
    type: 'list',
    write: `up to ${MAX_SUB_IDS} tags of 1 to ${MAX_SUB_ID_LENGTH} characters`,
    attributeWrite: `up to ${MAX_SUB_IDS} comma-separated tags of 1 to ${MAX_SUB_ID_LENGTH} characters`,
    example: ['newsletter', 'top-slot'],
  },
  { name: 'form', type: 'string', values: ['auto', 'always', 'never'] },
  { name: 'preview', type: 'boolean', values: YES_NO },
  { name: 'theme', type: 'string', values: ['light', 'dark'] },
  {
    name: 'themeVariables',
    type: 'object',
    keys: THEME_VARIABLES,
    write: `an object with keys from: ${THEME_VARIABLES.join(', ')}`,
    attributeWrite: `JSON like {"--ow-color-accent":"#0a7"} (keys: ${THEME_VARIABLES})`,
  },
  {
    name: 'labels',
    type: 'object',
    keys: Object.keys(DEFAULT_LABELS),
    // The loan application's labels (loan-application/loan-labels.ts) are its chunk's to name: their list
    // is not in this bundle, whose bytes every offer search pays for.
    moreKeys: /^loan[A-Z]\w*$/,
    write: `an object with keys from: ${Object.keys(DEFAULT_LABELS).join(', ')}`,
    attributeWrite: 'JSON like {"heading":"Your quotes"} with keys of DEFAULT_LABELS or DEFAULT_LOAN_LABELS',
  },
  { name: 'emptyState', type: 'string', values: ['message', 'hide'] },
  {
    name: 'disclosureUrl',
    type: 'string',
    write: 'the URL of your advertiser disclosure page, e.g. "https://example.com/disclosure"',
  },
  { name: 'initialOffers', type: 'number', range: [1, 99], example: 3 },
  { name: 'headingLevel', type: 'number', values: [2, 3, 4, 5] },
  {
    name: 'attach',
    type: 'object',
    write: 'the { uuid, accessToken, rateTable } createServerSearch returned',
    // Only the two fields are read from the attribute: the rate table is for a server render.
    attributeWrite: 'JSON {"uuid":"...","accessToken":"..."} from your server',
  },
  { name: 'analytics', type: 'string', values: ['dataLayer'] },
  {
    name: 'placement',
    type: 'string',
    write: 'a placement id you choose, e.g. "home-hero" (letters, digits, _ - .)',
  },
  { name: 'injectStyles', type: 'boolean', values: YES_NO, propOnly: true },
  { name: 'nonce', type: 'string', write: 'the page CSP nonce' },
  { name: 'className', type: 'string', write: 'class names' },
] as const satisfies readonly WidgetOption[]

export type OptionName = (typeof WIDGET_OPTIONS)[number]['name']

/** How a prop or an attribute writes a choice's values (choice-words.ts). */
const choicesIn = (as: 'prop' | 'attribute') => (as === 'prop' ? propChoices : attributeChoices)

/**
 * What to write instead of a refused value, read after "write " in a warning, in the syntax of a prop
 * (`2 or 3`, `e.g. 3`) or of an attribute, whose value is text (`"2" or "3"`, `e.g. "3"`).
 */
export function whatToWrite(option: WidgetOption, as: 'prop' | 'attribute'): string {
  if (option.values) return choicesIn(as)(option.values)
  const range = option.range && `a whole number from ${option.range[0]} to ${option.range[1]}`
  const words = (as === 'attribute' && option.attributeWrite) || option.write || range
  return option.example === undefined ? `${words}` : `${words}, e.g. ${choicesIn(as)([option.example])}`
}

/** What a reader accepts of an option, as the table says it: its choices, its range, its keys. */
interface Accepts {
  readonly values?: readonly Value[]
  readonly range?: readonly [number, number]
  readonly keys?: readonly string[]
  readonly moreKeys?: RegExp
}

/**
 * An option's fix in one syntax, and what it accepts. The fix is absent for a choice: its values written
 * out (choice-words.ts), which each reader says itself.
 */
function readerEntry(option: WidgetOption, as: 'prop' | 'attribute'): { write?: string } & Accepts {
  const { values, range, keys, moreKeys } = option
  const write = whatToWrite(option, as)
  const choices = values && choicesIn(as)(values)
  return {
    ...(write !== choices && { write }),
    ...(values && { values }),
    ...(range && { range }),
    ...(keys && { keys }),
    ...(moreKeys && { moreKeys }),
  }
}

/**
 * What the script tag's attribute readers need of an option: its fix in the attribute's words, and what its
 * reader accepts. src/embed/attribute-options.ts holds these by option, generated (`npm run generate`), so
 * the table's other words and this module's code stay out of the script-tag bundle.
 */
export interface AttributeOption extends Accepts {
  /** Absent for a choice: its values written out, as choice-words.ts says them. */
  readonly write?: string
}

/** Every option a mount point's attribute carries (all but the props the script tag sets itself), by name. */
export function attributeOptionsOf(
  options: readonly WidgetOption[],
): Partial<Record<OptionName, AttributeOption>> {
  return Object.fromEntries(
    options
      .filter((option) => !option.propOnly)
      .map((option) => [option.name, readerEntry(option, 'attribute')]),
  )
}

/**
 * What the props parser (parse-props.ts) needs of an option: a search field's type (search data is judged
 * by the form's own rules, form-values.ts), a display prop's fix in a prop's words (absent for a choice: its
 * values written out, as choice-words.ts says them) and what it accepts. src/widget/prop-options.ts holds these
 * by option, generated (`npm run generate`), so the attribute words and this module's code stay out of the
 * npm widget's bundle.
 */
export interface PropOption extends Accepts {
  readonly type?: WidgetOption['type']
  readonly write?: string
}

/** Every option as a prop, by name. */
export function propOptionsOf(options: readonly WidgetOption[]): Partial<Record<OptionName, PropOption>> {
  return Object.fromEntries(
    options.map((option) => [
      option.name,
      option.name.startsWith('search.') ? { type: option.type } : readerEntry(option, 'prop'),
    ]),
  )
}
