/**
 * @module Reads a mount point's `data-*` attributes into embed options. Each attribute is the kebab-case
 * name of an option (`data-zip-code` for `search.zipCode`, `data-theme` for `theme`), parsed with
 * zod/mini; a bad value is dropped with a warning naming the attribute, the value and what to write
 * instead, and the widget still mounts with the rest. Table-driven to keep the script-tag bundle small.
 */
import * as z from 'zod/mini'
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

const TRUE = ['', 'true', 'yes', '1']
const bool = z.pipe(
  z.enum([...TRUE, 'false', 'no', '0']),
  z.transform((v: string) => TRUE.includes(v)),
)
const parseJson = z.transform((text: string, ctx) => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    ctx.issues.push({ code: 'custom', message: 'not JSON', input: text })
    return z.NEVER
  }
})
const json = <T extends z.ZodMiniType>(inner: T) => z.pipe(z.string(), z.pipe(parseJson, inner))
const keysIn = (known: readonly string[]) =>
  z.record(z.string(), z.string()).check(z.refine((r) => Object.keys(r).every((k) => known.includes(k))))
const isEndpoint = (value: string) => {
  if (value === '' || value.startsWith('/')) return true
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}
const isPastDate = (value: string) => {
  const time = Date.parse(`${value}T00:00:00Z`)
  return time < Date.now() && new Date(time).toISOString().startsWith(value)
}
const oneOf = (...values: [string, ...string[]]) =>
  [z.enum(values), values.map((v) => `"${v}"`).join(' or ')] as const

/**
 * Option path -> [schema, what to write]. The attribute is `data-` + the kebab-case of the path's last
 * segment. Values reach the options only through these schemas.
 */
const RULES: Record<string, readonly [z.ZodMiniType, string]> = {
  endpoint: [z.string().check(z.refine(isEndpoint)), 'the BFF base URL, e.g. "https://offers.example.com"'],
  source: oneOf('offer-search', 'second-look'),
  'search.zipCode': [z.string().check(z.regex(/^\d{5}(-\d{4})?$/)), 'a 5-digit ZIP code, e.g. "94107"'],
  'search.dateOfBirth': [
    z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.refine(isPastDate)),
    'a past date as YYYY-MM-DD, e.g. "1988-04-21"',
  ],
  'search.currentIssuer': [
    z.string().check(z.regex(/^[\w.-]{1,100}$/)),
    'an id from /api/issuers, or "notinsured"',
  ],
  'search.numberOfVehicles': [
    z.pipe(
      z.string().check(z.regex(/^\d{1,2}$/)),
      z.pipe(z.transform(Number), z.number().check(z.gte(1), z.lte(20))),
    ),
    'a whole number from 1 to 20, e.g. "2"',
  ],
  'search.isHomeOwner': [bool, '"true" or "false"'],
  'search.isMilitary': [bool, '"true" or "false"'],
  'search.clientTags.subId': [
    z.pipe(
      z.string(),
      z.pipe(
        z.transform((v: string) => v.split(',').map((part) => part.trim())),
        z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(10)),
      ),
    ),
    'up to 10 comma-separated tags, e.g. "newsletter,top-slot"',
  ],
  form: oneOf('auto', 'always', 'never'),
  preview: [bool, '"true" or "false"'],
  theme: oneOf('light', 'dark'),
  themeVariables: [
    json(keysIn(THEME_VARIABLES)),
    `JSON like {"--ow-color-accent":"#0a7"} (keys: ${THEME_VARIABLES})`,
  ],
  labels: [
    json(keysIn(Object.keys(DEFAULT_LABELS))),
    'JSON like {"heading":"Your quotes"} with keys of DEFAULT_LABELS',
  ],
  emptyState: oneOf('message', 'hide'),
  headingLevel: [z.pipe(z.enum(['2', '3', '4', '5']), z.transform(Number)), '2, 3, 4 or 5'],
  attach: [
    json(z.object({ uuid: z.string(), accessToken: z.string() })),
    'JSON {"uuid":"...","accessToken":"..."} from your server',
  ],
  nonce: [z.string(), 'the page CSP nonce'],
  className: [z.string(), 'class names'],
}

const attributeOf = (path: string) =>
  `data-${(path.split('.').pop() as string).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
/** Attribute name -> option path. */
export const ATTRIBUTES = new Map(Object.keys(RULES).map((path) => [attributeOf(path), path]))
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

export function parseDataAttributes(element: Element): ParsedAttributes {
  const options: EmbedOptions = {}
  const warnings: string[] = []
  const where = `on <${element.localName}${element.id ? `#${element.id}` : ''}>`
  for (const { name, value } of element.attributes) {
    if (!name.startsWith('data-') || name === MOUNT_ATTRIBUTE) continue
    const path = ATTRIBUTES.get(name)
    if (!path) {
      const near = [...ATTRIBUTES.keys()].find((known) => squash(known) === squash(name))
      if (near) warnings.push(`offer-widget: ${name} ${where} is not an option; did you mean ${near}?`)
      continue
    }
    const [schema, expected] = RULES[path] as readonly [z.ZodMiniType, string]
    const parsed = schema.safeParse(value)
    if (parsed.success) setPath(options as Record<string, unknown>, path, parsed.data)
    else
      warnings.push(
        `offer-widget: ${name}="${value.slice(0, 80)}" ${where} is invalid and was ignored; write ${expected}.`,
      )
  }
  return { options, warnings }
}
