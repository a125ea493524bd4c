/**
 * @module The one loopback predicate, through both callers (partner link rule, conformance endpoint check), on
 * the hosts where the two old copies disagreed (`127.attacker.com` passed the kit, `*.localhost` only the contract).
 */
import { describe, expect, it } from 'vitest'
import { isLoopbackHost } from '../../src/contract/loopback.ts'
import { partnerUrlProblem } from '../../src/contract/partner.ts'
import { endpointCheck } from '../../src/partner-kit/reply-checks.ts'

const TABLE: [url: string, loopback: boolean][] = [
  ['http://127.attacker.com/offers', false],
  ['http://127.0.0.1.nip.io/offers', false],
  ['http://localhost.attacker.com/offers', false],
  ['http://127x.example/offers', false],
  ['http://10.0.0.1/offers', false],
  ['http://[::2]/offers', false],
  ['http://127.0.0.1:4000/offers', true],
  ['http://127.1/offers', true],
  ['http://0x7f000001/offers', true],
  ['http://localhost:4000/offers', true],
  ['http://partner.localhost/offers', true],
  ['http://LOCALHOST./offers', true],
  ['http://[::1]:4000/offers', true],
  ['http://[::ffff:127.0.0.1]/offers', true],
]

describe('loopback hosts', () => {
  it.each(TABLE)('%s is loopback: %s', (url, loopback) => {
    expect(isLoopbackHost(new URL(url).hostname)).toBe(loopback)
    expect(endpointCheck(url).ok).toBe(loopback)
    expect(partnerUrlProblem(url) === undefined).toBe(loopback)
  })

  it('decides on bare strings too, brackets or not', () => {
    expect(isLoopbackHost('::1')).toBe(true)
    expect(isLoopbackHost('[::1]')).toBe(true)
    expect(isLoopbackHost('127.256.0.1')).toBe(false)
    expect(isLoopbackHost('0177.0.0.1')).toBe(false)
  })
})
