/**
 * @module The reports bearer: operator and per-partner tokens told apart, exact match only.
 */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { MarketplaceContext } from '../../../src/marketplace/marketplace-context.ts'
import type { PartnerRegistryEntry } from '../../../src/marketplace/registry/partner-registry.ts'
import { createPartnerAuth } from '../../../src/marketplace/routes/partner-auth.ts'

describe('reports bearer', () => {
  it('matches only the exact token, and tells the operator from each partner', () => {
    const partner = { id: 'acme', reportsToken: 'acme-token-0123456789' } as PartnerRegistryEntry
    const auth = createPartnerAuth({
      reportsToken: 'tok-123',
      registry: new Map([['acme', partner]]),
    } as unknown as MarketplaceContext)
    const ask = (authorization?: string) => {
      const c = new Hono()
      c.get('/', (ctx) => {
        const who = auth.authenticate(ctx)
        return who instanceof Response ? who : ctx.json(who.kind === 'operator' ? 'operator' : who.partner.id)
      })
      return c.request('/', { headers: authorization === undefined ? {} : { Authorization: authorization } })
    }
    const who = async (authorization?: string) => {
      const res = await ask(authorization)
      return res.status === 200 ? await res.json() : res.status
    }
    return Promise.all([
      expect(who('Bearer tok-123')).resolves.toBe('operator'),
      expect(who('bearer tok-123')).resolves.toBe('operator'),
      expect(who('Bearer acme-token-0123456789')).resolves.toBe('acme'),
      expect(who('Bearer tok-1234')).resolves.toBe(401),
      expect(who('tok-123')).resolves.toBe(401),
      expect(who(undefined)).resolves.toBe(401),
    ])
  })

  it('refuses at start a partner token equal to REPORTS_TOKEN', () => {
    const partner = { id: 'acme', reportsToken: 'same-token-0123456789' } as PartnerRegistryEntry
    expect(() =>
      createPartnerAuth({
        reportsToken: 'same-token-0123456789',
        registry: new Map([['acme', partner]]),
      } as unknown as MarketplaceContext),
    ).toThrow(/acme's reportsTokenEnv holds REPORTS_TOKEN/)
  })
})
