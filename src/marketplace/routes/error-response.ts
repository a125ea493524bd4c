/**
 * @module Error bodies of the marketplace routes in the BFF's shape (`bffErrorSchema`): a stable `code`
 * from `ERROR_CODES` for code, a `message` for people, and field issues when there are any.
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { BffError, ErrorCode } from '../../contract/bff.ts'
import type { FieldIssue } from '../../contract/common.ts'

export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  errors?: FieldIssue[],
): Response {
  const body: BffError = errors ? { code, message, errors: errors.map((e) => ({ ...e })) } : { code, message }
  c.header('Cache-Control', 'no-store')
  return c.json(body, status)
}
