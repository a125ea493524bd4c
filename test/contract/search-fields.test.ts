/**
 * @module The offer search's field bounds, defined once (src/contract/search-fields.ts): the BFF's schemas
 * hold exactly them, with messages that name the field and the bound, and the date-of-birth rule the form
 * and the attribute readers share, case by case.
 */
import { describe, expect, it } from 'vitest'
import { toFieldIssues } from '../../src/contract/common.ts'
import { offerSearchInputSchema, offerSearchRequestSchema } from '../../src/contract/offer-search.ts'
import {
  dateOfBirthProblem,
  isNumberOfVehicles,
  isSubIdList,
  MAX_ISSUER_LENGTH,
  MAX_SUB_ID_LENGTH,
  MAX_SUB_IDS,
  MAX_VEHICLES,
  MIN_VEHICLES,
  ZIP_CODE_SAYS,
} from '../../src/contract/search-fields.ts'

const session = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0' }

/** The reasons each schema gives for `body` (both: the browser's input and the upstream request). */
function reasons(body: Record<string, unknown>): string[][] {
  return [offerSearchInputSchema, offerSearchRequestSchema].map((schema) => {
    const result = schema.safeParse({
      productTypes: ['AutomobileInsurance'],
      ...body,
      sessionInformation: session,
    })
    return result.success ? [] : toFieldIssues(result.error).map((issue) => issue.reason)
  })
}
const auto = (fields: Record<string, unknown>) => ({ autoInsuranceInformation: fields })

describe("the BFF's schemas hold the search fields' bounds", () => {
  it('numberOfVehicles: min to max, each end named', () => {
    expect(reasons(auto({ numberOfVehicles: MIN_VEHICLES }))).toEqual([[], []])
    expect(reasons(auto({ numberOfVehicles: MAX_VEHICLES }))).toEqual([[], []])
    const over = `autoInsuranceInformation.numberOfVehicles must be at most ${MAX_VEHICLES}`
    expect(reasons(auto({ numberOfVehicles: MAX_VEHICLES + 1 }))).toEqual([[over], [over]])
    const under = `autoInsuranceInformation.numberOfVehicles must be at least ${MIN_VEHICLES}`
    expect(reasons(auto({ numberOfVehicles: MIN_VEHICLES - 1 }))).toEqual([[under], [under]])
  })

  it('currentIssuer: at most maxLength characters', () => {
    expect(reasons(auto({ currentIssuer: 'x'.repeat(MAX_ISSUER_LENGTH) }))).toEqual([[], []])
    const long = `autoInsuranceInformation.currentIssuer must be at most ${MAX_ISSUER_LENGTH} characters`
    expect(reasons(auto({ currentIssuer: 'x'.repeat(MAX_ISSUER_LENGTH + 1) }))).toEqual([[long], [long]])
  })

  it('clientTags.subId: at most maxTags tags of at most maxLength characters', () => {
    const tags = (n: number, length = 1) => ({ clientTags: { subId: Array(n).fill('t'.repeat(length)) } })
    expect(reasons(tags(MAX_SUB_IDS, MAX_SUB_ID_LENGTH))).toEqual([[], []])
    const many = `clientTags.subId takes at most ${MAX_SUB_IDS} tags`
    expect(reasons(tags(MAX_SUB_IDS + 1))).toEqual([[many], [many]])
    const long = `clientTags.subId[] must be at most ${MAX_SUB_ID_LENGTH} characters`
    expect(reasons(tags(1, MAX_SUB_ID_LENGTH + 1))).toEqual([[long], [long]])
  })

  it("zipCode: the pattern, said in the bound's words", () => {
    expect(reasons({ personalInformation: { zipCode: '94107-1234' } })).toEqual([[], []])
    const bad = `personalInformation.zipCode must be ${ZIP_CODE_SAYS}`
    expect(reasons({ personalInformation: { zipCode: '9410' } })).toEqual([[bad], [bad]])
  })
})

describe('the predicates the form and the attribute readers share', () => {
  const on = (iso: string) => new Date(`${iso}T12:00:00`)

  it.each([
    ['1990-02-30', '2026-03-01', 'invalid'], // no such day
    ['2026-03-01', '2026-03-01', 'invalid'], // today is not in the past
    ['1899-12-31', '2026-03-01', 'invalid'], // before earliest
    ['2010-03-02', '2026-03-01', 'age'], // 15, turns 16 tomorrow
    ['2010-03-01', '2026-03-01', undefined], // 16 today
    ['1926-03-01', '2026-03-01', undefined], // 100 today
    ['1925-03-01', '2026-03-01', 'age'], // 101
  ] as const)('date of birth %s on %s: %s', (dob, today, problem) => {
    expect(dateOfBirthProblem(dob, on(today))).toBe(problem)
  })

  it('numberOfVehicles and subId, at their bounds', () => {
    expect([0, 1, 20, 21, 2.5].map(isNumberOfVehicles)).toEqual([false, true, true, false, false])
    expect(isSubIdList(Array(MAX_SUB_IDS).fill('t'))).toBe(true)
    expect(isSubIdList(Array(MAX_SUB_IDS + 1).fill('t'))).toBe(false)
    expect(isSubIdList(['', 'a'])).toBe(false)
  })
})
