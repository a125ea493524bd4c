import { describe, expect, it } from 'vitest'
import { rateTableSchema } from '../../src/contract/offer-search.ts'

describe('smoke', () => {
  it('rejects a rate table without uuid', () => {
    const result = rateTableSchema.safeParse({})
    expect(result.success).toBe(false)
  })
})
