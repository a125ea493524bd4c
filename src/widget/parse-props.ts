/**
 * @module `<OfferWidget>`'s props, parsed once at the package's door (checked-widget.tsx) into what to
 * search for (a `SearchRequest`: search, lead or attach) and props the widget can render, with one warning
 * per problem that names the prop and what to write instead, as stripe-js names a bad option. The props
 * and their fixes are the widget's options table (widget-options.ts, read here as prop-options.ts, which
 * `npm run generate` writes from it), which the script tag's attribute readers (embed/data-attributes.ts)
 * read too, with the same policy: a display prop with a bad value is
 * dropped for its default, so the widget still renders with the rest; search data is checked by the form's
 * own rules but sent as given, so the visitor sees the BFF's answer in the form and nothing the page
 * passed is lost; props that cannot apply together (a lead without `source="second-look"`, `attach` beside
 * `search`) are named with the one that wins. Only the npm package's entry imports this module: the
 * script-tag bundle reads attributes instead and carries none of it. docs/decisions/0104-props-parsed-once.md.
 */
import * as z from 'zod/mini'
import { isEndpoint, isHttpUrl } from '../contract/http-url.ts'
import { PLACEMENT_PATTERN } from '../contract/placement.ts'
import { propChoices } from './choice-words.ts'
import { toFormValues, validateForm } from './form-values.ts'
import { DEFAULT_LABELS } from './labels.ts'
import type { OfferWidgetProps } from './OfferWidget.tsx'
import { PROP_OPTIONS } from './prop-options.ts'
import { FORM_FIELDS, type SearchData } from './search-input.ts'
import { type SearchRequest, searchRequestOf } from './search-request.ts'
import type { OptionName, PropOption } from './widget-options.ts'

export interface ParsedProps {
  /** The props to render: every display prop valid or absent. */
  props: OfferWidgetProps
  /** What the widget searches for, by the one rule in search-request.ts. */
  request: SearchRequest
  /** One line per problem, ready for `console.warn`. */
  warnings: string[]
}

/** The props whose value needs a schema of its own; every other one's comes from its table entry (`schemaOf`). */
const SCHEMAS: Partial<Record<OptionName, z.ZodMiniType>> = {
  endpoint: z.string().check(z.refine(isEndpoint)),
  disclosureUrl: z.string().check(z.refine(isHttpUrl)),
  attach: z.object({ uuid: z.string(), accessToken: z.string() }),
  placement: z.string().check(z.regex(PLACEMENT_PATTERN)),
}

/** A display prop's schema by its table entry: one of its values, a whole number in range, or a string. */
function schemaOf(name: OptionName, option: PropOption): z.ZodMiniType {
  const { values, range } = option
  const own = SCHEMAS[name]
  if (own) return own
  if (values) return z.literal(values)
  if (range) return z.int().check(z.gte(range[0]), z.lte(range[1]))
  return z.string()
}

const OPTIONS = Object.entries(PROP_OPTIONS) as [OptionName, PropOption][]
const isSearchField = ([name]: [OptionName, PropOption]) => name.startsWith('search.')

/** Display props: [prop, schema, what to write]. A value that fails is dropped for the prop's default. */
const DISPLAY = OPTIONS.filter((entry) => !isSearchField(entry) && !entry[1].keys).map(
  ([name, option]) =>
    [name, schemaOf(name, option), option.write ?? propChoices(option.values ?? [])] as const,
)

/** Object props whose known keys are kept and unknown ones dropped, each named. */
const KEYED = OPTIONS.filter(([, option]) => option.keys)

/** Each search field's type, as `SearchData` declares it (`clientTags` holds the fields under it). */
const SEARCH_TYPES: Record<string, string> = Object.fromEntries(
  OPTIONS.filter(isSearchField).map(([name, { type }]) => {
    const [, field, under] = name.split('.')
    return [field, under ? 'object' : type]
  }),
)

function keyedWarnings(
  clean: Record<string, unknown>,
  [key, { keys: known = [], moreKeys = /^$/, write }]: [OptionName, PropOption],
): string[] {
  const value = clean[key]
  if (value === undefined) return []
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    delete clean[key]
    return [
      `offer-widget: <OfferWidget ${key}={${shown(value)}}> is not an object and was ignored; write ${write}.`,
    ]
  }
  const kept = Object.entries(value).filter(
    ([name, text]) => (known.includes(name) || moreKeys.test(name)) && typeof text === 'string',
  )
  if (kept.length === Object.keys(value).length) return []
  clean[key] = Object.fromEntries(kept)
  const dropped = Object.keys(value).filter((name) => !kept.some(([k]) => k === name))
  return [
    `offer-widget: <OfferWidget ${key}> ignored ${dropped.join(', ')}: each key must be one of ${known.join(', ')}, with a string value.`,
  ]
}

const shown = (value: unknown) => {
  const text = String(JSON.stringify(value) ?? value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/**
 * Search data judged by the form's own rules (form-values.ts: what the widget would ask the visitor to fix),
 * so the message is the one a visitor would read. Its type first: a field of another type is named too.
 * Apart from `parseProps` because a date of birth is judged against `today`: read in the browser after a
 * render, never while a server (Next.js's prerender) renders.
 */
export function searchDataWarnings(search: unknown, today: Date): string[] {
  const where = (field: string, value: unknown) =>
    `offer-widget: <OfferWidget search.${field}={${shown(value)}}>`
  if (typeof search !== 'object' || search === null || Array.isArray(search)) {
    return [
      `offer-widget: <OfferWidget search={${shown(search)}}> is not search data; write an object like { zipCode: '94107' }.`,
    ]
  }
  const data = search as Record<string, unknown>
  const warnings: string[] = []
  for (const [field, value] of Object.entries(data)) {
    const type = SEARCH_TYPES[field]
    if (value === undefined) continue
    if (!type)
      warnings.push(
        `${where(field, value)} is not a search field; the fields are ${Object.keys(SEARCH_TYPES).join(', ')}.`,
      )
    else if (typeof value !== type) warnings.push(`${where(field, value)} must be a ${type}.`)
  }
  if (warnings.length > 0) return warnings
  const given = FORM_FIELDS.filter((field) => data[field] !== undefined)
  const errors = validateForm(toFormValues(data as SearchData), given, DEFAULT_LABELS, today)
  return Object.entries(errors).map(
    ([field, message]) =>
      `${where(field, data[field])}: ${message} (sent as given; if the BFF refuses it, the form asks the visitor).`,
  )
}

/** Props that cannot apply together, each named with the one that wins (search-request.ts). */
function kindWarnings(props: OfferWidgetProps): string[] {
  const warnings: string[] = []
  const given = (['search', 'lead', 'attach'] as const).filter((key) => props[key] != null)
  const secondLook = props.source === 'second-look'
  if (props.attach != null && given.length > 1) {
    warnings.push(
      `offer-widget: <OfferWidget> got attach with ${given.filter((k) => k !== 'attach').join(' and ')}; attach wins and the rest is ignored: pass one of search, lead and attach.`,
    )
  } else if (props.lead != null && !secondLook) {
    warnings.push(
      `offer-widget: <OfferWidget lead> is read only with source="second-look"; add source="second-look", or pass search for an offer search.`,
    )
  } else if (props.search != null && secondLook) {
    warnings.push(
      `offer-widget: <OfferWidget search> is not read with source="second-look"; pass the loan lead as lead.`,
    )
  }
  return warnings
}

/**
 * Parses `props` once: the request, the renderable props, and what is wrong with the rest (search data apart:
 * `searchDataWarnings`). Pure, and reads no clock, so a server may render it.
 */
export function parseProps(props: OfferWidgetProps): ParsedProps {
  const clean: Record<string, unknown> = { ...props }
  const warnings: string[] = []
  for (const [key, schema, expected] of DISPLAY) {
    const value = clean[key]
    if (value === undefined || z.safeParse(schema, value).success) continue
    delete clean[key]
    warnings.push(
      `offer-widget: <OfferWidget ${key}={${shown(value)}}> is invalid and was ignored; write ${expected}.`,
    )
  }
  for (const option of KEYED) warnings.push(...keyedWarnings(clean, option))
  const parsed = clean as OfferWidgetProps
  const request = searchRequestOf(parsed)
  warnings.push(...kindWarnings(parsed))
  return { props: parsed, request, warnings }
}
