/**
 * @module The fake BFF's refusals in the BFF's error body (`{ code, message, errors? }`), so a scenario's
 * refusal names its code and fields as the real BFF's does and the widget reads it the same way.
 */
import { HttpResponse } from 'msw'
import type { ErrorCode } from '../../contract/bff.ts'
import type { FieldIssue } from '../../contract/common.ts'

export function bffError(
  status: number,
  code: ErrorCode,
  message: string,
  extra: object = {},
  headers?: HeadersInit,
): Response {
  return HttpResponse.json({ code, message, ...extra }, { status, headers })
}

/** 400 `validation_failed` naming each field, as the BFF answers a body it will not take. */
export function fieldsRefused(errors: FieldIssue[], message = 'Some fields are invalid'): Response {
  return bffError(400, 'validation_failed', message, { errors })
}

/**
 * 409 `duplicate_applicant`: the applicant applied within the duplicate window and that application's offers
 * can no longer be shown (the real BFF's words, src/marketplace/intake/answer-duplicate.ts on its branch).
 */
export function duplicateApplicant(): Response {
  return bffError(
    409,
    'duplicate_applicant',
    'This applicant (the same SSN and date of birth) already applied within the duplicate window ' +
      '(DUPLICATE_WINDOW_DAYS) and the offers of that application can no longer be shown, so this lead was ' +
      'sent to no partner. Tell the applicant they applied recently; a new application is taken once the ' +
      'window has passed.',
  )
}
