/**
 * @module The remaining pure modules: search status, partners seen (progress and disclaimers), search
 * input and form values, labels, theme variables, and the version header value.
 */

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { PendingResponse, RateTable } from '../../src/contract/offer-search.ts'
import { makePartner } from '../../src/playground/scenarios/fixtures.ts'
import { formFieldOf, fromFormValues, toFormValues, validateForm } from '../../src/widget/form-values.ts'
import { completeLabel, DEFAULT_LABELS, formatLabel } from '../../src/widget/labels.ts'
import { progressText } from '../../src/widget/SearchProgress.tsx'
import { FORM_FIELDS, missingFields, toSearchInput } from '../../src/widget/search-input.ts'
import { deriveStatus, type StatusInput } from '../../src/widget/search-status.ts'
import { disclaimersToShow, mergeSeenPartners, progressOf } from '../../src/widget/seen-partners.ts'
import { themeStyle } from '../../src/widget/theme.ts'
import { WIDGET_VERSION } from '../../src/widget/version.ts'
import { OfferWidgetError } from '../../src/widget/widget-error.ts'

const pending = (...partners: ReturnType<typeof makePartner>[]): PendingResponse[] =>
  partners.map((partner) => ({ partner, offerCatalogProductTypes: ['AutomobileInsurance'] }))

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

describe('partners seen during the search', () => {
  const a = makePartner({ name: 'A', disclaimer: 'A licence' })
  const b = makePartner({ name: 'B', disclaimer: '' })
  const c = makePartner({ name: 'C', disclaimer: '  ' })
  const d = makePartner({ name: 'D', disclaimer: 'A licence' })

  test('a partner that answered is kept; progress counts it as answered', () => {
    const first = mergeSeenPartners([], pending(a, b, c))
    const later = mergeSeenPartners(first, pending(c))
    expect(later.map((p) => p.brandName)).toEqual(['A', 'B', 'C'])
    expect(progressOf(later, pending(c))).toEqual({ answered: 2, total: 3 })
  })

  test('only populated disclaimers, each text once', () => {
    expect(disclaimersToShow(mergeSeenPartners([], pending(a, b, c, d))).map((x) => x.brandName)).toEqual([
      'A',
    ])
  })

  test('a later populated disclaimer replaces an empty one, never the reverse', () => {
    const seen = mergeSeenPartners([], pending(b))
    const filled = mergeSeenPartners(seen, pending({ ...b, disclaimer: 'B licence' }))
    expect(disclaimersToShow(filled).map((x) => x.text)).toEqual(['B licence'])
    const emptied = mergeSeenPartners(filled, pending({ ...b, disclaimer: '' }))
    expect(disclaimersToShow(emptied).map((x) => x.text)).toEqual(['B licence'])
  })
})

describe('search input and form values', () => {
  test('absent fields are omitted; no sessionInformation ever', () => {
    expect(toSearchInput({})).toEqual({ productTypes: ['AutomobileInsurance'] })
    expect(toSearchInput({ isMilitary: false })).toEqual({
      productTypes: ['AutomobileInsurance'],
      autoInsuranceInformation: { policyHolderInformation: { isMilitary: false } },
    })
    expect(JSON.stringify(toSearchInput({ zipCode: '94107' }))).not.toContain('session')
  })

  test('missingFields lists what the page did not give, in form order', () => {
    expect(missingFields({ zipCode: '94107', isMilitary: false })).toEqual([
      'dateOfBirth',
      'currentIssuer',
      'numberOfVehicles',
      'isHomeOwner',
    ])
  })

  test('form values round-trip and merge over the page data', () => {
    const given = { zipCode: '10001', isHomeOwner: true, clientTags: { subId: ['x'] } }
    const values = {
      ...toFormValues(given),
      zipCode: ' 94107 ',
      numberOfVehicles: '3',
      isMilitary: 'no' as const,
    }
    expect(fromFormValues(values, given)).toEqual({
      zipCode: '94107',
      isHomeOwner: true,
      isMilitary: false,
      numberOfVehicles: 3,
      clientTags: { subId: ['x'] },
    })
  })

  test('validation: ZIP required and 5 digits; date of birth real and past; vehicles 1 to 20', () => {
    const empty = toFormValues({})
    const today = new Date('2026-03-01T00:00:00Z')
    expect(validateForm(empty, FORM_FIELDS, DEFAULT_LABELS, today)).toEqual({
      zipCode: DEFAULT_LABELS.zipCodeRequired,
    })
    expect(validateForm({ ...empty, zipCode: '9410' }, ['zipCode'], DEFAULT_LABELS).zipCode).toBe(
      DEFAULT_LABELS.zipCodeInvalid,
    )
    expect(validateForm({ ...empty, zipCode: '94107-1234' }, ['zipCode'], DEFAULT_LABELS)).toEqual({})
    for (const dob of ['1990-02-30', '2027-01-01', '1800-01-01']) {
      expect(
        validateForm({ ...empty, dateOfBirth: dob }, ['dateOfBirth'], DEFAULT_LABELS, today).dateOfBirth,
      ).toBe(DEFAULT_LABELS.dateOfBirthInvalid)
    }
    expect(validateForm({ ...empty, numberOfVehicles: '21' }, ['numberOfVehicles'], DEFAULT_LABELS)).toEqual({
      numberOfVehicles: DEFAULT_LABELS.numberOfVehiclesInvalid,
    })
  })

  test('BFF field paths map onto form fields, whichever ZIP spelling', () => {
    expect(formFieldOf('personalInformation.zipCode')).toBe('zipCode')
    expect(formFieldOf('personalInformation.zipcode')).toBe('zipCode')
    expect(formFieldOf('autoInsuranceInformation.policyHolderInformation.isHomeOwner')).toBe('isHomeOwner')
    expect(formFieldOf('productTypes')).toBeUndefined()
  })
})

describe('labels, theme, version', () => {
  test('the completion line is singular for one offer and plural otherwise', () => {
    expect(completeLabel(DEFAULT_LABELS, 1)).toBe('Search complete: 1 offer.')
    expect(completeLabel(DEFAULT_LABELS, 3)).toBe('Search complete: 3 offers.')
  })

  test('progress words count offers on screen and sources still pending, singular and plural', () => {
    expect(progressText(DEFAULT_LABELS, 0, 0, 3)).toBe('Checking 3 sources for offers…')
    expect(progressText(DEFAULT_LABELS, 2, 2, 5)).toBe('2 offers so far, still checking 3 sources')
    expect(progressText(DEFAULT_LABELS, 1, 3, 4)).toBe('1 offer so far, still checking 1 source')
  })

  test('formatLabel fills placeholders and leaves unknown ones visible', () => {
    expect(formatLabel('{answered} of {total}', { answered: 3, total: 5 })).toBe('3 of 5')
    expect(formatLabel('{a} {b}', { a: 1 })).toBe('1 {b}')
  })

  test('themeStyle passes only known --ow-* variables', () => {
    expect(themeStyle({ '--ow-radius': '4px', ...({ '--evil': 'x', color: 'red' } as object) })).toEqual({
      '--ow-radius': '4px',
    })
    expect(themeStyle(undefined)).toBeUndefined()
  })

  test('X-Offer-Widget carries the package version', () => {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string }
    expect(WIDGET_VERSION).toBe(pkg.version)
  })
})
