/**
 * @module Request bodies parsed with bounds before any schema sees them: nesting deeper than a route's
 * shape could need is refused before `JSON.parse` builds it (a 5,000-deep array once overflowed the stack
 * in `JSON.stringify`), and keys that name JavaScript's prototype machinery (`__proto__`, `constructor`,
 * `prototype`) are refused at any depth, so no such key is ever handed on. Strict schemas do the rest.
 */
import type { Context } from 'hono'
import { httpError } from './errors.ts'

/** Keys refused anywhere in a body: prototype pollution vectors, never real fields of ours. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

export type JsonParse = { ok: true; value: unknown } | { ok: false; field: string; reason: string }

/**
 * Parses `text` as JSON when its arrays and objects nest at most `maxDepth` deep (the top-level value is
 * depth 1) and no key is forbidden. The depth scan is one pass over the text, without recursion.
 */
export function parseJsonBounded(text: string, maxDepth: number): JsonParse {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 0x5c)
        i++ // backslash: the next character is escaped
      else if (code === 0x22) inString = false
    } else if (code === 0x22) {
      inString = true
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) {
        return { ok: false, field: '(body)', reason: `The body nests deeper than ${maxDepth} levels` }
      }
    } else if (code === 0x7d || code === 0x5d) {
      depth--
    }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, field: '(body)', reason: 'The body must be JSON' }
  }
  const forbidden = findForbiddenKey(value, '')
  if (forbidden !== undefined) {
    return { ok: false, field: forbidden, reason: `${forbidden} is not an accepted field name` }
  }
  return { ok: true, value }
}

/** The dotted path of the first forbidden key; depth is already bounded, so recursion is safe. */
function findForbiddenKey(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findForbiddenKey(value[i], path ? `${path}.${i}` : String(i))
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key
    if (FORBIDDEN_KEYS.has(key)) return at
    const found = findForbiddenKey((value as Record<string, unknown>)[key], at)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * The request's JSON object, parsed with `parseJsonBounded`; a 400 naming the problem otherwise. For
 * routes: `const json = await readJsonBody(c, { maxDepth: 6 })`.
 */
export async function readJsonBody(c: Context, options: { maxDepth: number }): Promise<unknown> {
  const text = await c.req.text()
  const parsed = parseJsonBounded(text, options.maxDepth)
  if (!parsed.ok) {
    throw httpError(400, 'bad_request', parsed.reason, {
      errors: [{ field: parsed.field, reason: parsed.reason }],
    })
  }
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    throw httpError(400, 'bad_request', 'The body must be a JSON object')
  }
  return parsed.value
}
