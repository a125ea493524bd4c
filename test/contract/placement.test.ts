/**
 * @module The placement contract (docs/placements.md): a placement id never has room for visitor data, the
 * search and lead bodies take it, and the widget's measure is one of two closed shapes; every refusal names
 * the field and the fix.
 */
import { describe, expect, it } from 'vitest'
import { toFieldIssues } from '../../src/contract/common.ts'
import { leadInputSchema } from '../../src/contract/lead.ts'
import { offerSearchInputSchema } from '../../src/contract/offer-search.ts'
import { MEASURE_MAX_OFFERS, placementSchema, searchMeasureSchema } from '../../src/contract/placement.ts'
import { SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'

const issuesOf = (result: { success: boolean; error?: { issues: never[] } }) =>
  result.success ? [] : toFieldIssues(result.error as { issues: never[] })

describe('placement', () => {
  it('takes short ids of letters, digits, _ - and .', () => {
    for (const id of ['home-hero', 'quote_sidebar.2', 'A', 'x'.repeat(40)]) {
      expect(placementSchema.safeParse(id).success, id).toBe(true)
    }
  })

  it('refuses what could carry a visitor: an email, a space, a path, a query, too long, empty', () => {
    for (const id of [
      'jane@example.com',
      'home hero',
      '/loans',
      'a?zip=94107',
      '-lead',
      '',
      'x'.repeat(41),
    ]) {
      const result = placementSchema.safeParse(id)
      expect(result.success, id).toBe(false)
      expect(result.error?.issues[0]?.message).toMatch(/placement must be 1 to 40 .*home-hero/)
    }
  })

  it('rides in the offer search body and the lead body, refused there by name', () => {
    const search = { productTypes: ['AutomobileInsurance'], placement: 'home-hero' }
    expect(offerSearchInputSchema.safeParse(search).data?.placement).toBe('home-hero')
    expect(issuesOf(offerSearchInputSchema.safeParse({ ...search, placement: 'a b' }) as never)).toEqual([
      { field: 'placement', reason: expect.stringMatching(/^placement must be/) },
    ])
    expect(leadInputSchema.safeParse({ ...SAMPLE_LEAD, placement: 'loans-footer' }).data?.placement).toBe(
      'loans-footer',
    )
    expect(issuesOf(leadInputSchema.safeParse({ ...SAMPLE_LEAD, placement: 7 }) as never)).toEqual([
      { field: 'placement', reason: expect.stringMatching(/^placement must be/) },
    ])
  })
})

describe('the widget measure', () => {
  it('is offers shown or one click', () => {
    expect(searchMeasureSchema.safeParse({ shown: ['o-1', 'o-2'] }).success).toBe(true)
    expect(searchMeasureSchema.safeParse({ clicked: 'o-1' }).success).toBe(true)
  })

  it('refuses anything else, saying what a measure is', () => {
    for (const body of [
      {},
      { shown: [] },
      { shown: Array.from({ length: MEASURE_MAX_OFFERS + 1 }, (_, i) => `o-${i}`) },
      { clicked: '' },
      { shown: ['o-1'], clicked: 'o-1' },
      { shown: ['o-1'], zip: '94107' },
      'shown',
    ]) {
      expect(searchMeasureSchema.safeParse(body).success, JSON.stringify(body).slice(0, 80)).toBe(false)
    }
    expect(searchMeasureSchema.safeParse({ clicked: 3 }).error?.issues[0]?.message).toMatch(
      /"shown".*"clicked"/,
    )
  })
})
