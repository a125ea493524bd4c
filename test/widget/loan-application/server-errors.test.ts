/**
 * @module The BFF's field errors on the application's fields: by the same paths as the form's own rules,
 * with the field's sentence for visitors; a path no field holds is the generic line; a refused consent text
 * means the operator changed it since it was shown.
 */
import { expect, test } from 'vitest'
import { DEFAULT_LOAN_LABELS as L } from '../../../src/widget/loan-application/loan-labels.ts'
import { toLoanValues } from '../../../src/widget/loan-application/loan-values.ts'
import { readServerErrors } from '../../../src/widget/loan-application/server-errors.ts'
import { LEAD } from './loan-fixtures.ts'

const values = { ...toLoanValues(LEAD), creditKind: 'rating' as const }

test("each error lands on the field holding its path, with that field's sentence", () => {
  const view = readServerErrors(
    [
      { field: 'personalInformation.email', reason: 'personalInformation.email must be an email address' },
      { field: 'creditInformation.providedCreditRating', reason: 'not a rating we price' },
      { field: 'financialInformation.annualIncome', reason: 'x' },
    ],
    values,
    L,
  )
  expect(view).toEqual({
    errors: {
      email: L.loanEmailInvalid,
      providedCreditRating: L.loanCreditRatingRequired,
      annualIncome: L.loanIncomeInvalid,
    },
    message: undefined,
    consentChanged: false,
  })
})

test('a path no field holds (the consent extension, the body) is the generic line', () => {
  expect(readServerErrors([{ field: 'consent.pageUrl', reason: 'x' }], values, L).message).toBe(L.loanRefused)
  expect(readServerErrors([{ field: '(body)', reason: 'x' }], values, L)).toMatchObject({
    errors: {},
    message: L.loanRefused,
  })
})

test('a consent text the BFF no longer serves: the box says the terms changed, and consent is asked again', () => {
  const view = readServerErrors([{ field: 'legalInformation.tcpaLanguage', reason: 'not served' }], values, L)
  expect(view).toEqual({ errors: { tcpa: L.loanConsentChanged }, message: undefined, consentChanged: true })
})
