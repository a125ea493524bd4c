/**
 * @module The one host predicate (`contract/network-host.ts`) through every caller: the partner link rule in
 * both modes, the conformance kit's endpoint check, the registry's endpoint check and the server route's
 * visitor address. Where two old copies disagreed (`127.attacker.com` passed the services, `*.localhost` only the
 * contract) and where the old rule passed a visitor's own machine (`http://127.0.0.1:631`, `router.localhost`
 * outside sandbox mode, `::127.0.0.1` as a visitor).
 */
import { describe, expect, it } from 'vitest'
import { hostReach, isLoopbackHost, isPublicAddress } from '../../src/contract/network-host.ts'
import { partnerUrlProblem } from '../../src/contract/partner.ts'
import { parsePartnerRegistry } from '../../src/marketplace/registry/partner-registry.ts'
import { endpointCheck } from '../../src/partner-kit/reply-checks.ts'

const TABLE: [url: string, reach: 'loopback' | 'local' | 'public'][] = [
  ['http://127.attacker.com/offers', 'public'],
  ['http://127.0.0.1.nip.io/offers', 'public'],
  ['http://localhost.attacker.com/offers', 'public'],
  ['http://127x.example/offers', 'public'],
  ['https://lender.example.com/offers', 'public'],
  ['https://81.2.69.160/offers', 'public'],
  ['https://[2a00:1450:4001:82b::200e]/offers', 'public'],
  ['http://127.0.0.1:4000/offers', 'loopback'],
  ['http://127.0.0.1:631/x', 'loopback'],
  ['http://127.1/offers', 'loopback'],
  ['http://0x7f000001/offers', 'loopback'],
  ['http://localhost:4000/offers', 'loopback'],
  ['http://partner.localhost/offers', 'loopback'],
  ['https://router.localhost/', 'loopback'],
  ['http://LOCALHOST./offers', 'loopback'],
  ['http://[::1]:4000/offers', 'loopback'],
  ['http://[::ffff:127.0.0.1]/offers', 'loopback'],
  ['https://[::127.0.0.1]/', 'loopback'],
  ['http://10.0.0.1/offers', 'local'],
  ['https://10.0.0.1/', 'local'],
  ['https://172.16.4.2/', 'local'],
  ['https://192.168.1.1/', 'local'],
  ['https://169.254.169.254/latest/meta-data', 'local'],
  ['https://100.64.0.1/', 'local'],
  ['https://0.0.0.0/', 'local'],
  ['https://192.0.2.1/', 'local'],
  ['https://[::ffff:10.0.0.1]/', 'local'],
  ['https://[::ffff:192.168.1.1]/', 'local'],
  ['https://[fe80::1]/', 'local'],
  ['https://[fd00::1]/', 'local'],
  ['https://[::]/', 'local'],
  ['https://[64:ff9b::7f00:1]/', 'local'],
  ['http://[::2]/offers', 'local'],
  ['https://printer/', 'local'],
  ['https://nas.local/', 'local'],
  ['https://router.home.arpa/', 'local'],
  ['https://db.internal/', 'local'],
]

describe('where a host is', () => {
  it.each(TABLE)('%s is %s', (url, reach) => {
    const { hostname } = new URL(url)
    expect(hostReach(hostname)).toBe(reach)
    expect(isLoopbackHost(hostname)).toBe(reach === 'loopback')
    // The contract alone (any mode): https anywhere, http only to loopback.
    const isHttps = url.startsWith('https:')
    expect(partnerUrlProblem(url) === undefined).toBe(isHttps || reach === 'loopback')
    expect(endpointCheck(url).ok).toBe(isHttps || reach === 'loopback')
    // Outside sandbox mode: https to a public host only, links and endpoints alike.
    expect(partnerUrlProblem(url, { publicOnly: true }) === undefined).toBe(isHttps && reach === 'public')
    const registry = `partners: [{ id: p, name: P, tier: first, endpoint: "${url}" }]`
    const production = () => parsePartnerRegistry(registry, { sandboxMode: false, secrets: {} })
    if (isHttps && reach === 'public') expect(production()).toHaveLength(1)
    else expect(production).toThrow(/endpoint: must be https/)
  })

  it('names the reason in a link problem without the host', () => {
    expect(partnerUrlProblem('http://127.0.0.1:631/x', { publicOnly: true })).toBe(
      'must be https to a public host outside sandbox mode (this host is the machine itself)',
    )
    expect(partnerUrlProblem('https://10.0.0.1/', { publicOnly: true })).toBe(
      'must be https to a public host outside sandbox mode (this host is on a private or reserved network)',
    )
    expect(partnerUrlProblem('http://lender.example.com/', { publicOnly: true })).toBe(
      'must be https outside sandbox mode',
    )
  })

  it('decides on bare strings too, brackets or not', () => {
    expect(isLoopbackHost('::1')).toBe(true)
    expect(isLoopbackHost('[::1]')).toBe(true)
    expect(isLoopbackHost('127.256.0.1')).toBe(false)
    expect(isLoopbackHost('0177.0.0.1')).toBe(false)
    // Numeric spellings a browser reads as an address are never a public name either.
    expect(hostReach('0177.0.0.1')).toBe('local')
    expect(hostReach('127.256.0.1')).toBe('local')
  })

  it.each([
    ['81.2.69.160', true],
    ['::ffff:81.2.69.160', true],
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['[::1]', false],
    ['localhost', false],
    ['lender.example.com', false],
  ])('isPublicAddress(%s) is %s: only IP addresses, globally routable', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected)
  })
})
