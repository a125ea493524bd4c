/**
 * @module The idempotency body hash: keyed, and blind to key order.
 */
import { describe, expect, it } from 'vitest'
import { canonicalJson, createBodyHasher } from '../../../src/marketplace/intake/idempotency.ts'

describe('idempotency body hash', () => {
  it('is the same for the same body in another key order, different for another body, and keyed', () => {
    const hash = createBodyHasher('secret-one-123456')
    expect(hash({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(hash({ b: [1, { d: 3, c: 2 }], a: 1 }))
    expect(hash({ a: 1 })).not.toBe(hash({ a: 2 }))
    expect(createBodyHasher('secret-two-123456')({ a: 1 })).not.toBe(hash({ a: 1 }))
    expect(canonicalJson({ b: 1, a: undefined, c: null })).toBe('{"b":1,"c":null}')
  })
})
