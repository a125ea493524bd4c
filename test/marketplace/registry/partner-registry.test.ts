import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  loadPartnerRegistry,
  PartnerRegistryError,
  parsePartnerRegistry,
  resolvePartnerRegistry,
} from '../../../src/marketplace/index.ts'
import { startSimulatedPartners } from '../../../src/partner-kit/index.ts'

const YAML = `
partners:
  - id: acme-loans
    name: Acme Loans
    tier: first
    endpoint: https://partner.example.com/leads
    auth: { header: Authorization, valueEnv: PARTNER_ACME_TOKEN, prefix: "Bearer " }
    timeoutMs: 8000
    scoreFactor: 1.2
    display:
      name: Acme
      logoUrl: https://partner.example.com/logo.svg
      productType: installment_loan
      copy: Fixed-rate loans up to $40,000.
  - id: second-co
    name: Second Co
    tier: second
    endpoint: https://second.example.com/bid
`

const options = { sandboxMode: false, secrets: { PARTNER_ACME_TOKEN: 's3cret-value' } }

describe('partner registry', () => {
  it('reads YAML with defaults: 12 s timeout, score factor 1, enabled, display from the name', () => {
    const [acme, second] = parsePartnerRegistry(YAML, options)
    expect(acme).toMatchObject({
      id: 'acme-loans',
      tier: 'first',
      auth: { header: 'Authorization', value: 'Bearer s3cret-value' },
      timeoutMs: 8000,
      scoreFactor: 1.2,
      enabled: true,
      display: { name: 'Acme', productType: 'installment_loan', productDisplayName: 'Installment loan' },
    })
    expect(second).toMatchObject({
      timeoutMs: 12_000,
      scoreFactor: 1,
      enabled: true,
      auth: undefined,
      display: { name: 'Second Co', productType: 'loan', logoUrl: '', copy: '' },
    })
  })

  it('reads a .json file as JSON and accepts a bare list', () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-'))
    const file = join(dir, 'partners.json')
    writeFileSync(
      file,
      JSON.stringify([{ id: 'j', name: 'J', tier: 'second', endpoint: 'https://j.example.com/' }]),
    )
    expect(loadPartnerRegistry(file, options).map((p) => p.id)).toEqual(['j'])
  })

  it('names every problem at start, with the fix', () => {
    const bad = `
partners:
  - id: Bad Id
    name: ''
    tier: third
    endpoint: not a url
    timeoutMs: 20000
    surprise: true
`
    const error = (() => {
      try {
        parsePartnerRegistry(bad, options)
      } catch (e) {
        return e as Error
      }
      throw new Error('expected a failure')
    })()
    expect(error).toBeInstanceOf(PartnerRegistryError)
    expect(error.message).toContain('id must be 1-64 lower-case letters')
    expect(error.message).toContain('tier must be "first" or "second"')
    expect(error.message).toContain(
      'endpoint must be an absolute http(s) URL, e.g. https://partner.example.com/leads',
    )
    expect(error.message).toContain("timeoutMs must be at most 12000 (docs/partner-interface.md's window)")
    expect(error.message).toContain('surprise')
  })

  it('requires https to a public host outside sandbox mode, and allows http to loopback only in sandbox mode', () => {
    const plain = 'partners: [{ id: p, name: P, tier: first, endpoint: "http://127.0.0.1:9/leads" }]'
    expect(() => parsePartnerRegistry(plain, options)).toThrow(
      /endpoint: must be https to a public host outside sandbox mode \(this host is the machine itself\)/,
    )
    const local = 'partners: [{ id: p, name: P, tier: first, endpoint: "https://127.0.0.1:9/leads" }]'
    expect(() => parsePartnerRegistry(local, options)).toThrow(/must be https to a public host/)
    const [entry] = parsePartnerRegistry(plain, { ...options, sandboxMode: true })
    // Registered in sandbox mode: its links may be on this machine too.
    expect(entry?.sandbox).toBe(true)
    const remote = 'partners: [{ id: p, name: P, tier: first, endpoint: "http://partner.example.com/leads" }]'
    expect(() => parsePartnerRegistry(remote, { ...options, sandboxMode: true })).toThrow(
      /endpoint: must be https \(http is accepted only to a loopback host\)/,
    )
    expect(parsePartnerRegistry(remote.replace('http:', 'https:'), options)[0]?.sandbox).toBeUndefined()
  })

  it('refuses an unset credential variable, duplicate ids, and reserved headers, and never prints a secret', () => {
    const source = `
partners:
  - { id: a, name: A, tier: first, endpoint: "https://a.example.com", auth: { header: Authorization, valueEnv: PARTNER_MISSING } }
  - { id: a, name: A2, tier: first, endpoint: "https://a.example.com", auth: { header: Content-Type, valueEnv: PARTNER_ACME_TOKEN } }
`
    expect(() => parsePartnerRegistry(source, options)).toThrow(PartnerRegistryError)
    try {
      parsePartnerRegistry(source, options)
    } catch (e) {
      const message = (e as Error).message
      expect(message).toContain('PARTNER_MISSING is not set in the environment')
      expect(message).toContain('"a" is used twice')
      expect(message).toContain('"Content-Type" is set by the marketplace')
      expect(message).not.toContain('s3cret-value')
    }
  })

  it("resolves each partner's reportsTokenEnv, and refuses an unset, short, shared or badly named one", () => {
    const entry = (id: string, env: string) =>
      `  - { id: ${id}, name: ${id}, tier: second, endpoint: https://${id}.example.com/, reportsTokenEnv: ${env} }`
    const yaml = (...lines: string[]) => `partners:\n${lines.join('\n')}\n`
    const [a, b] = parsePartnerRegistry(
      yaml(entry('a', 'PARTNER_A_REPORTS'), entry('b', 'PARTNER_B_REPORTS')),
      {
        sandboxMode: false,
        secrets: { PARTNER_A_REPORTS: 'a-token-0123456789abc', PARTNER_B_REPORTS: 'b-token-0123456789abc' },
      },
    )
    expect(a?.reportsToken).toBe('a-token-0123456789abc')
    expect(b?.reportsToken).toBe('b-token-0123456789abc')
    const secrets = { PARTNER_SHORT: 'short', PARTNER_SAME: 'same-token-0123456789' }
    let message = ''
    try {
      parsePartnerRegistry(
        yaml(
          entry('unset', 'PARTNER_MISSING'),
          entry('short', 'PARTNER_SHORT'),
          entry('one', 'PARTNER_SAME'),
          entry('two', 'PARTNER_SAME'),
          entry('named', 'REPORTS_TOKEN'),
        ),
        { sandboxMode: false, secrets },
      )
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain(
      'partners.4.reportsTokenEnv: reportsTokenEnv must name an environment variable starting with PARTNER_',
    )
    expect(message).not.toContain('same-token-0123456789')
  })

  it('refuses unset, short and shared partner tokens by name, never printing one', () => {
    const entry = (id: string, env: string) =>
      `  - { id: ${id}, name: ${id}, tier: second, endpoint: https://${id}.example.com/, reportsTokenEnv: ${env} }`
    const secrets = { PARTNER_SHORT: 'short', PARTNER_SAME: 'same-token-0123456789' }
    let message = ''
    try {
      parsePartnerRegistry(
        `partners:\n${[entry('unset', 'PARTNER_MISSING'), entry('short', 'PARTNER_SHORT'), entry('one', 'PARTNER_SAME'), entry('two', 'PARTNER_SAME')].join('\n')}\n`,
        { sandboxMode: false, secrets },
      )
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain(
      'partners.0 (unset).reportsTokenEnv: PARTNER_MISSING is not set in the environment',
    )
    expect(message).toContain(
      'partners.1 (short).reportsTokenEnv: PARTNER_SHORT must be at least 16 characters',
    )
    expect(message).toContain("partners.3 (two).reportsTokenEnv: PARTNER_SAME holds the same token as one's")
    expect(message).not.toContain('same-token-0123456789')
    expect(message).not.toContain('short,')
  })

  it('reports unreadable files and bad YAML by name', () => {
    expect(() => loadPartnerRegistry('/nonexistent/partners.yaml', options)).toThrow(
      /PARTNERS_FILE \/nonexistent\/partners.yaml: cannot be read \(ENOENT\)/,
    )
    expect(() => parsePartnerRegistry('partners: [', options)).toThrow(/not valid YAML/)
  })

  it('with no PARTNERS_FILE in sandbox mode, the registry is the simulated partners the caller starts', async () => {
    const resolved = await resolvePartnerRegistry({
      partnersFile: undefined,
      sandboxMode: true,
      partnerSecrets: {},
      startSimulated: () =>
        startSimulatedPartners({
          latencies: { fast: 1, slow: 1, late: 1 },
          reportsToken: 'sandbox-partner-token-0123456789',
        }),
    })
    try {
      // One simulated partner has its own reports token, so `npm start` can print a partner's own view.
      expect(resolved.entries.filter((e) => e.reportsToken).map((e) => [e.id, e.reportsToken])).toEqual([
        ['sim-fast', 'sandbox-partner-token-0123456789'],
      ])
      expect(resolved.source).toBe('simulated')
      expect(resolved.entries.map((e) => [e.id, e.tier])).toEqual([
        ['sim-rejecting', 'first'],
        ['sim-erroring', 'first'],
        ['sim-garbage', 'first'],
        ['sim-fast', 'second'],
        ['sim-slow', 'second'],
        ['sim-late', 'second'],
      ])
      expect(resolved.entries.filter((e) => !e.endpoint.startsWith('http://127.0.0.1:'))).toEqual([])
    } finally {
      await resolved.close()
    }
    const none = await resolvePartnerRegistry({
      partnersFile: undefined,
      sandboxMode: false,
      partnerSecrets: {},
      startSimulated: () => Promise.reject(new Error('not in production mode')),
    })
    expect(none).toMatchObject({ entries: [], source: 'none' })
  })
})
