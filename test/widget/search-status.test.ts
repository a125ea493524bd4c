/** @module The widget's status from its search state: idle, creating, searching, complete or error. */
import { describe, expect, test } from 'vitest'
import type { RateTable } from '../../src/contract/offer-search.ts'
import { deriveStatus, type StatusInput } from '../../src/widget/search-status.ts'
import { OfferWidgetError } from '../../src/widget/widget-error.ts'

describe('deriveStatus', () => {
  const table = (pendingCount: number) =>
    ({ pendingResponses: Array.from({ length: pendingCount }), offers: [] }) as unknown as RateTable
  const base: StatusInput = {
    requested: true,
    createError: null,
    created: true,
    rateTable: table(2),
    closed: false,
    pollError: null,
    displayableOffers: 0,
  }
  const e503 = new OfferWidgetError('server', 'x')

  test('idle, creating, searching, complete', () => {
    expect(deriveStatus({ ...base, requested: false }).status).toBe('idle')
    expect(deriveStatus({ ...base, created: false, rateTable: undefined }).status).toBe('creating')
    expect(deriveStatus(base).status).toBe('searching')
    expect(deriveStatus({ ...base, rateTable: table(0) })).toEqual({
      status: 'complete',
      error: null,
      incomplete: false,
    })
  })
  test('window closed with partners pending: complete, incomplete', () => {
    expect(deriveStatus({ ...base, closed: true })).toEqual({
      status: 'complete',
      error: null,
      incomplete: true,
    })
  })
  test('polling ended on errors: error with nothing shown, complete with offers shown', () => {
    expect(deriveStatus({ ...base, pollError: e503 }).status).toBe('error')
    expect(deriveStatus({ ...base, pollError: e503, displayableOffers: 2 }).status).toBe('complete')
  })
  test('a failed POST is an error', () => {
    expect(deriveStatus({ ...base, createError: e503, created: false }).error).toBe(e503)
  })
})
