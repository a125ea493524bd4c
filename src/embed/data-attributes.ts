/**
 * @module Reads a mount point's `data-*` attributes into embed options. Each attribute is the kebab-case
 * name of an option (`data-zip-code` for `search.zipCode`, `data-theme` for `theme`), read by a small
 * strict reader per option; a bad value is dropped with a warning naming the attribute, the value and what
 * to write instead, and the widget still mounts with the rest. Table-driven to keep the script-tag bundle
 * small. Plain readers rather than zod: the values are short fixed formats in the publisher's own markup,
 * and zod's pipe/transform/enum/record schemas cost about 1.2 kB gzip in the bundle for them.
 */
import { ZIP_PATTERN } from '../contract/common.ts'
import { isEndpoint, isHttpUrl } from '../contract/http-url.ts'
import { PLACEMENT_PATTERN } from '../contract/placement.ts'
import { DEFAULT_LABELS } from '../widget/labels.ts'
import { THEME_VARIABLES } from '../widget/theme.ts'
import type { EmbedOptions } from './options.ts'

/** The attribute that marks a mount point. */
export const MOUNT_ATTRIBUTE = 'data-offer-widget'

export interface ParsedAttributes {
  options: EmbedOptions
  /** One line per ignored attribute, ready for `console.warn`. */
  warnings: string[]
}

/** A rule reads an attribute's text into an option value, or `undefined` when the text is not valid. */
type Read = (text: string) => unknown

const TRUE = ['', 'true', 'yes', '1']
const bool: Read = (v) => (TRUE.includes(v) ? true : ['false', 'no', '0'].includes(v) ? false : undefined)
const text: Read = (v) => v
const matching =
  (pattern: RegExp, then: Read = text): Read =>
  (v) =>
    pattern.test(v) ? then(v) : undefined
/** A JSON object (not an array, not null), handed to `then` to check. */
const json =
  (then: (value: object) => unknown): Read =>
  (text) => {
    try {
      const value: unknown = JSON.parse(text)
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? then(value) : undefined
    } catch {
      return undefined
    }
  }
/** A string-to-string object whose keys are all in `known` (or match `also`). */
const keysIn = (known: readonly string[], also = /^$/) =>
  json((record) =>
    Object.entries(record).every(([k, v]) => (known.includes(k) || also.test(k)) && typeof v === 'string')
      ? record
      : undefined,
  )
const isPastDate = (value: string) => {
  const time = Date.parse(`${value}T00:00:00Z`)
  return time < Date.now() && new Date(time).toISOString().startsWith(value)
}
const oneOf = (...values: string[]) =>
  [(v: string) => (values.includes(v) ? v : undefined), values.map((v) => `"${v}"`).join(' or ')] as const

/**
 * Option path -> [reader, what to write]. The attribute is `data-` + the kebab-case of the path's last
 * segment. Values reach the options only through these readers.
 */
const RULES: Record<string, readonly [Read, string]> = {
  endpoint: [(v) => (isEndpoint(v) ? v : undefined), 'the BFF base URL, e.g. "https://offers.example.com"'],
  source: oneOf('offer-search', 'second-look'),
  'search.zipCode': [matching(ZIP_PATTERN), 'a 5-digit ZIP code, e.g. "94107"'],
  'search.dateOfBirth': [
    (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) && isPastDate(v) ? v : undefined),
    'a past date as YYYY-MM-DD, e.g. "1988-04-21"',
  ],
  'search.currentIssuer': [matching(/^[\w.-]{1,100}$/), 'an id from /api/issuers, or "notinsured"'],
  'search.numberOfVehicles': [
    matching(/^\d{1,2}$/, (v) => (Number(v) >= 1 && Number(v) <= 20 ? Number(v) : undefined)),
    'a whole number from 1 to 20, e.g. "2"',
  ],
  'search.isHomeOwner': [bool, '"true" or "false"'],
  'search.isMilitary': [bool, '"true" or "false"'],
  'search.clientTags.subId': [
    (v) => {
      const tags = v.split(',').map((part) => part.trim())
      return tags.length <= 10 && tags.every((t) => t.length >= 1 && t.length <= 100) ? tags : undefined
    },
    'up to 10 comma-separated tags, e.g. "newsletter,top-slot"',
  ],
  form: oneOf('auto', 'always', 'never'),
  preview: [bool, '"true" or "false"'],
  theme: oneOf('light', 'dark'),
  themeVariables: [
    keysIn(THEME_VARIABLES),
    `JSON like {"--ow-color-accent":"#0a7"} (keys: ${THEME_VARIABLES})`,
  ],
  labels: [
    // The loan application's `loan…` labels are its chunk's to check.
    keysIn(Object.keys(DEFAULT_LABELS), /^loan[A-Z]/),
    'JSON like {"heading":"Your quotes"} with keys of DEFAULT_LABELS or DEFAULT_LOAN_LABELS',
  ],
  emptyState: oneOf('message', 'hide'),
  disclosureUrl: [
    (v) => (isHttpUrl(v) ? v : undefined),
    'the URL of your advertiser disclosure page, e.g. "https://example.com/disclosure"',
  ],
  initialOffers: [
    matching(/^\d{1,2}$/, (v) => (Number(v) >= 1 ? Number(v) : undefined)),
    'a whole number from 1 to 99, e.g. "3"',
  ],
  headingLevel: [matching(/^[2-5]$/, Number), '2, 3, 4 or 5'],
  attach: [
    // Only the two fields are kept: anything else in the JSON never reaches the widget.
    json((o: { uuid?: unknown; accessToken?: unknown }) =>
      typeof o.uuid === 'string' && typeof o.accessToken === 'string'
        ? { uuid: o.uuid, accessToken: o.accessToken }
        : undefined,
    ),
    'JSON {"uuid":"...","accessToken":"..."} from your server',
  ],
  analytics: oneOf('dataLayer'),
  placement: [
    matching(PLACEMENT_PATTERN),
    'a placement id you choose, e.g. "home-hero" (letters, digits, _ - .)',
  ],
  nonce: [text, 'the page CSP nonce'],
  className: [text, 'class names'],
}

const attributeOf = (path: string) =>
  (path.split('.').pop() as string).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
/** Attribute name without `data-` (`zip-code`, as on `<offer-widget>`) -> option path. */
export const OPTION_ATTRIBUTES = new Map(Object.keys(RULES).map((path) => [attributeOf(path), path]))
/** Attribute name -> option path. */
const ATTRIBUTES = new Map([...OPTION_ATTRIBUTES].map(([name, path]) => [`data-${name}`, path]))
const squash = (name: string) => name.replace(/[-_]/g, '')

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  const last = keys.pop() as string
  let node = target
  for (const key of keys) {
    node[key] ??= {}
    node = node[key] as Record<string, unknown>
  }
  node[last] = value
}

/** The `data-*` options of a mount point (`<div data-offer-widget data-zip-code=...>`). */
export function parseDataAttributes(element: Element): ParsedAttributes {
  return parseAttributes(element, ATTRIBUTES, (name) => name.startsWith('data-') && name !== MOUNT_ATTRIBUTE)
}

/**
 * The options of an `<offer-widget>` element: the same names without `data-` (`zip-code`, `theme`); its
 * own attributes (`id`, `class`, `style`, `data-*`...) are not options and pass silently.
 */
export function parseElementAttributes(element: Element): ParsedAttributes {
  return parseAttributes(element, OPTION_ATTRIBUTES, (name) => !GLOBAL_ATTRIBUTE.test(name))
}

/** HTML's own attributes on any element: never options. */
const GLOBAL_ATTRIBUTE =
  /^(?:id|class|style|slot|part|title|lang|dir|hidden|role|tabindex|translate|inert|is|data-.*|aria-.*|on.*)$/

function parseAttributes(
  element: Element,
  known: Map<string, string>,
  candidate: (name: string) => boolean,
): ParsedAttributes {
  const options: EmbedOptions = {}
  const warnings: string[] = []
  const where = `on <${element.localName}${element.id ? `#${element.id}` : ''}>`
  for (const { name, value } of element.attributes) {
    if (!candidate(name)) continue
    const path = known.get(name)
    if (!path) {
      const near = [...known.keys()].find((option) => squash(option) === squash(name))
      if (near) warnings.push(`offer-widget: ${name} ${where} is not an option; did you mean ${near}?`)
      continue
    }
    const [read, expected] = RULES[path] as readonly [Read, string]
    const parsed = read(value)
    if (parsed !== undefined) setPath(options as Record<string, unknown>, path, parsed)
    else
      warnings.push(
        `offer-widget: ${name}="${value.slice(0, 80)}" ${where} is invalid and was ignored; write ${expected}.`,
      )
  }
  return { options, warnings }
}
