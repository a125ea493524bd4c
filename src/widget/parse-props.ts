/**
 * @module `<OfferWidget>`'s props, parsed once at the package's door (checked-widget.tsx) into what to
 * search for (a `SearchRequest`: search, lead or attach) and props the widget can render, with one warning
 * per problem that names the prop and what to write instead, as stripe-js names a bad option. The same
 * policy as the script tag's attributes (embed/data-attributes.ts): a display prop with a bad value is
 * dropped for its default, so the widget still renders with the rest; search data is checked by the form's
 * own rules but sent as given, so the visitor sees the BFF's answer in the form and nothing the page
 * passed is lost; props that cannot apply together (a lead without `source="second-look"`, `attach` beside
 * `search`) are named with the one that wins. Only the npm package's entry imports this module: the
 * script-tag bundle reads attributes instead and carries none of it. docs/decisions/0104-props-parsed-once.md.
 */
import * as z from 'zod/mini'
import { isEndpoint, isHttpUrl } from '../contract/http-url.ts'
import { PLACEMENT_PATTERN } from '../contract/placement.ts'
import { toFormValues, validateForm } from './form-values.ts'
import { DEFAULT_LABELS } from './labels.ts'
import type { OfferWidgetProps } from './OfferWidget.tsx'
import { FORM_FIELDS, type SearchData } from './search-input.ts'
import { type SearchRequest, searchRequestOf } from './search-request.ts'
import { THEME_VARIABLES } from './theme.ts'

export interface ParsedProps {
  /** The props to render: every display prop valid or absent. */
  props: OfferWidgetProps
  /** What the widget searches for, by the one rule in search-request.ts. */
  request: SearchRequest
  /** One line per problem, ready for `console.warn`. */
  warnings: string[]
}

const oneOf = <T extends string | number>(...values: T[]) =>
  [
    z.union(values.map((value) => z.literal(value)) as [z.ZodMiniLiteral<T>]),
    values.map((value) => JSON.stringify(value)).join(' or '),
  ] as const

/**
 * The loan application's labels (`loan…`, loan-application/loan-labels.ts) pass to its chunk, which names an
 * unknown one itself: their list is not in this module, whose bytes every offer search pays for.
 */
const LOAN_LABEL_KEY = /^loan[A-Z]\w*$/

/** Object props whose known keys are kept and unknown ones dropped, each named: prop -> its keys. */
const KEYED: Partial<Record<keyof OfferWidgetProps, readonly string[]>> = {
  themeVariables: THEME_VARIABLES,
  labels: Object.keys(DEFAULT_LABELS),
}

function keyedWarnings(clean: Record<string, unknown>, key: string, known: readonly string[]): string[] {
  const value = clean[key]
  if (value === undefined) return []
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    delete clean[key]
    return [
      `offer-widget: <OfferWidget ${key}={${shown(value)}}> is not an object and was ignored; write an object with keys from: ${known.join(', ')}.`,
    ]
  }
  const kept = Object.entries(value).filter(
    ([name, text]) =>
      (known.includes(name) || (key === 'labels' && LOAN_LABEL_KEY.test(name))) && typeof text === 'string',
  )
  if (kept.length === Object.keys(value).length) return []
  clean[key] = Object.fromEntries(kept)
  const dropped = Object.keys(value).filter((name) => !kept.some(([k]) => k === name))
  return [
    `offer-widget: <OfferWidget ${key}> ignored ${dropped.join(', ')}: each key must be one of ${known.join(', ')}, with a string value.`,
  ]
}

/** Display prop -> [schema, what to write]. A value that fails is dropped for the prop's default. */
const DISPLAY: Partial<Record<keyof OfferWidgetProps, readonly [z.ZodMiniType, string]>> = {
  endpoint: [
    z.string().check(z.refine(isEndpoint)),
    'the BFF base URL, e.g. "https://offers.example.com", or "" for this page\'s origin',
  ],
  source: oneOf('offer-search', 'second-look'),
  form: oneOf('auto', 'always', 'never'),
  preview: [z.boolean(), 'true or false'],
  theme: oneOf('light', 'dark'),
  emptyState: oneOf('message', 'hide'),
  initialOffers: [z.int().check(z.gte(1), z.lte(99)), 'a whole number from 1 to 99, e.g. 3'],
  disclosureUrl: [
    z.string().check(z.refine(isHttpUrl)),
    'the URL of your advertiser disclosure page, e.g. "https://example.com/disclosure"',
  ],
  headingLevel: oneOf(2, 3, 4, 5),
  attach: [
    z.object({ uuid: z.string(), accessToken: z.string() }),
    'the { uuid, accessToken, rateTable } createServerSearch returned',
  ],
  analytics: oneOf('dataLayer'),
  placement: [
    z.string().check(z.regex(PLACEMENT_PATTERN)),
    'a placement id you choose, e.g. "home-hero" (letters, digits, _ - .)',
  ],
  injectStyles: [z.boolean(), 'true or false'],
  nonce: [z.string(), 'the page CSP nonce'],
  className: [z.string(), 'class names'],
}

/** Each search field's type, as `SearchData` declares it. */
const SEARCH_TYPES: Record<string, string> = {
  zipCode: 'string',
  dateOfBirth: 'string',
  currentIssuer: 'string',
  numberOfVehicles: 'number',
  isHomeOwner: 'boolean',
  isMilitary: 'boolean',
  clientTags: 'object',
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
  for (const [key, [schema, expected]] of Object.entries(DISPLAY) as [
    string,
    readonly [z.ZodMiniType, string],
  ][]) {
    const value = clean[key]
    if (value === undefined || z.safeParse(schema, value).success) continue
    delete clean[key]
    warnings.push(
      `offer-widget: <OfferWidget ${key}={${shown(value)}}> is invalid and was ignored; write ${expected}.`,
    )
  }
  for (const [key, known] of Object.entries(KEYED)) warnings.push(...keyedWarnings(clean, key, known))
  const parsed = clean as OfferWidgetProps
  const request = searchRequestOf(parsed)
  warnings.push(...kindWarnings(parsed))
  return { props: parsed, request, warnings }
}
