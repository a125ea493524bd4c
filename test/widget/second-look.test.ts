/** @module second-look.ts: the lenders' progress from the rate table's extension, the countdown, and the places that can fill. */
import { describe, expect, test } from 'vitest'
import type { RateTable } from '../../src/contract/rate-table.ts'
import { makeOffer, makePartner } from '../../src/playground/scenarios/fixtures.ts'
import { DEFAULT_LABELS } from '../../src/widget/labels.ts'
import { lenderText } from '../../src/widget/SearchProgress.tsx'
import { lenderProgressOf, placesThatCanFill, secondsLeft } from '../../src/widget/second-look.ts'

const pending = (...types: string[][]) =>
  types.map((offerCatalogProductTypes) => ({
    partner: makePartner({ name: 'Lender' }),
    offerCatalogProductTypes,
  }))

const table = (overrides: Partial<RateTable>): RateTable => ({
  uuid: '00000000-0000-4000-8000-000000000001',
  leadUuid: '00000000-0000-4000-8000-000000000002',
  offers: [],
  pendingResponses: [],
  createdAt: '2026-11-25T10:00:00.000Z',
  ...overrides,
})

describe('lenderProgressOf', () => {
  test("the server's count wins over the pending list, answered never above asked", () => {
    const withExtension = table({
      secondLook: { partnersAsked: 6, partnersAnswered: 9, answerBy: '2026-11-25T10:00:24.000Z' },
    })
    expect(lenderProgressOf(withExtension, { answered: 1, total: 3 })).toEqual({
      asked: 6,
      answered: 6,
      answerBy: Date.parse('2026-11-25T10:00:24.000Z'),
    })
  })
  test('without the extension (an older server): what the pending list showed, no time', () => {
    expect(lenderProgressOf(table({}), { answered: 1, total: 3 })).toEqual({
      asked: 3,
      answered: 1,
      answerBy: undefined,
    })
  })
})

describe('the lenders sentence', () => {
  const now = Date.parse('2026-11-25T10:00:03.200Z')
  test.each([
    [{ asked: 6, answered: 2, answerBy: now + 20_500 }, 'Asking 6 lenders · 2 answered · up to 21 s left'],
    [{ asked: 1, answered: 0, answerBy: now - 5000 }, 'Asking 1 lender · 0 answered · up to 0 s left'],
    [{ asked: 4, answered: 1, answerBy: undefined }, 'Asking 4 lenders · 1 answered'],
  ])('%j: %s', (lenders, sentence) => {
    expect(lenderText(DEFAULT_LABELS, lenders, now)).toBe(sentence)
  })
  test('a publisher template gets {answered}, {total} and {seconds}', () => {
    const labels = {
      ...DEFAULT_LABELS,
      lenderProgress: '{answered} of {total} lenders answered ({seconds} s)',
    }
    expect(lenderText(labels, { asked: 5, answered: 3, answerBy: 10_000 }, 0)).toBe(
      '3 of 5 lenders answered (10 s)',
    )
  })
  test('secondsLeft rounds up and never goes below 0', () => {
    expect(secondsLeft(1001, 0)).toBe(2)
    expect(secondsLeft(0, 5000)).toBe(0)
  })
})

describe('placesThatCanFill', () => {
  test('second look: one place per product type still open among pending lenders, at most one per lender', () => {
    expect(placesThatCanFill(table({ pendingResponses: pending(['loan'], ['loan'], ['loan']) }), true)).toBe(
      1,
    )
    expect(placesThatCanFill(table({ pendingResponses: pending(['loan'], ['debt_relief']) }), true)).toBe(2)
    const filled = table({
      pendingResponses: pending(['loan'], ['debt_relief']),
      offers: [makeOffer({ rank: 1, productType: 'loan' })],
    })
    expect(placesThatCanFill(filled, true)).toBe(1)
    expect(placesThatCanFill(table({ pendingResponses: [] }), true)).toBe(0)
  })
  test('offer search: one place per pending partner', () => {
    expect(placesThatCanFill(table({ pendingResponses: pending(['A'], ['A'], ['A']) }), false)).toBe(3)
  })
})
