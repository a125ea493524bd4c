/**
 * @module Reads a mount point's `data-*` attributes into embed options. Each attribute is the kebab-case
 * name of an option of the widget's options table (widget/widget-options.ts, read here as
 * attribute-options.ts, which `npm run generate` writes from it; the props parser reads the same table:
 * `data-zip-code` for `search.zipCode`, `data-theme` for `theme`), read by a small strict reader per
 * option; a bad value is dropped with a warning naming the attribute, the value and what to write instead
 * (the table's words), and the widget still mounts with the rest. Table-driven to keep the script-tag bundle
 * small. Plain readers rather than zod: the values are short fixed formats in the publisher's own markup,
 * and zod's pipe/transform/enum/record schemas cost about 1.2 kB gzip in the bundle for them.
 */

import { ZIP_PATTERN } from '../contract/common.ts'
import { isEndpoint, isHttpUrl } from '../contract/http-url.ts'
import { PLACEMENT_PATTERN } from '../contract/placement.ts'
import { dateOfBirthProblem, isSubIdList, MAX_ISSUER_LENGTH } from '../contract/search-fields.ts'
import { attributeChoices } from '../widget/choice-words.ts'
import type { AttributeOption, OptionName } from '../widget/widget-options.ts'
import { ATTRIBUTE_OPTIONS } from './attribute-options.ts'
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

/**
 * The options whose text needs a rule of its own (a format, a predicate, JSON to pick from); every other
 * option is read by its table entry (`readerOf`). Values reach the options only through these readers.
 */
const READERS: Partial<Record<OptionName, Read>> = {
  endpoint: (v) => (isEndpoint(v) ? v : undefined),
  'search.zipCode': matching(ZIP_PATTERN),
  'search.dateOfBirth': (v) => (dateOfBirthProblem(v, new Date()) ? undefined : v),
  'search.currentIssuer': matching(new RegExp(`^[\\w.-]{1,${MAX_ISSUER_LENGTH}}$`)),
  'search.clientTags.subId': (v) => {
    const tags = v.split(',').map((part) => part.trim())
    return isSubIdList(tags) ? tags : undefined
  },
  disclosureUrl: (v) => (isHttpUrl(v) ? v : undefined),
  // Only the two fields are kept: anything else in the JSON never reaches the widget.
  attach: json((o: { uuid?: unknown; accessToken?: unknown }) =>
    typeof o.uuid === 'string' && typeof o.accessToken === 'string'
      ? { uuid: o.uuid, accessToken: o.accessToken }
      : undefined,
  ),
  placement: matching(PLACEMENT_PATTERN),
}

/** An option's reader by its table entry: yes or no, one of its values, a whole number in range, keyed JSON, text. */
function readerOf(path: OptionName, option: AttributeOption): Read {
  const { values, range, keys, moreKeys = /^$/ } = option
  const own = READERS[path]
  if (own) return own
  if (typeof values?.[0] === 'boolean') return bool
  if (values) return (v) => values.find((value) => String(value) === v)
  if (range)
    return matching(/^\d{1,9}$/, (v) =>
      Number(v) >= range[0] && Number(v) <= range[1] ? Number(v) : undefined,
    )
  if (keys)
    return json((record) =>
      Object.entries(record).every(
        ([k, v]) => (keys.includes(k) || moreKeys.test(k)) && typeof v === 'string',
      )
        ? record
        : undefined,
    )
  return text
}

/** Option path -> [reader, what to write]: every option of the table but those only a prop sets. */
const RULES = new Map(
  Object.entries(ATTRIBUTE_OPTIONS).map(([path, option]) => [
    path,
    [readerOf(path as OptionName, option), option.write ?? attributeChoices(option.values ?? [])] as const,
  ]),
)

/** The attribute without `data-` (`zip-code`, as on `<offer-widget>`): the kebab-case of the path's last segment. */
export const attributeOf = (path: string) =>
  (path.split('.').pop() as string).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
/** Attribute name without `data-` -> option path. */
export const OPTION_ATTRIBUTES = new Map([...RULES.keys()].map((path) => [attributeOf(path), path]))
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
    const [read, expected] = RULES.get(path) as readonly [Read, string]
    const parsed = read(value)
    if (parsed !== undefined) setPath(options as Record<string, unknown>, path, parsed)
    else
      warnings.push(
        `offer-widget: ${name}="${value.slice(0, 80)}" ${where} is invalid and was ignored; write ${expected}.`,
      )
  }
  return { options, warnings }
}
