/** @module The search body the widget sends, built from what the page gave, and what it did not give. */
import { describe, expect, test } from 'vitest'
import { missingFields, toSearchInput } from '../../src/widget/search-input.ts'

describe('search input', () => {
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
})
