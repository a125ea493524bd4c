import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UUID_PATTERN } from '../../src/contract/common.ts'
import { cryptoRandom, randomUuid, seededRandom } from '../../src/sandbox/random.ts'

describe('sandbox randomness', () => {
  it('seededRandom stays in [0, 1) and repeats for the same seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        const [a, b] = [seededRandom(seed), seededRandom(seed)]
        for (let i = 0; i < 50; i++) {
          const value = a()
          expect(value).toBeGreaterThanOrEqual(0)
          expect(value).toBeLessThan(1)
          expect(b()).toBe(value)
        }
      }),
    )
  })

  it('randomUuid gives version 4 UUIDs that our UUID pattern accepts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        const uuid = randomUuid(seededRandom(seed))
        expect(uuid).toMatch(UUID_PATTERN)
        expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      }),
    )
  })

  it('cryptoRandom stays in [0, 1)', () => {
    for (let i = 0; i < 1000; i++) {
      const value = cryptoRandom()
      expect(value >= 0 && value < 1).toBe(true)
    }
  })
})
