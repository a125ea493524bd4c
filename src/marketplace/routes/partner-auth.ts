/**
 * @module Who is asking, from the bearer token: the operator (`REPORTS_TOKEN`, reads every partner) or one
 * partner (its registry `reportsTokenEnv`, reads only itself and posts its own conversions). Tokens are
 * compared as every bearer credential is (`src/http/bearer.ts`): in constant time, all on every request.
 */
import type { Context } from 'hono'
import { bearerToken, createSecretMatcher } from '../../http/bearer.ts'
import { httpError } from '../../http/errors.ts'
import type { MarketplaceContext } from '../marketplace-context.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'

export type Caller = { kind: 'operator' } | { kind: 'partner'; partner: PartnerRegistryEntry }

export interface PartnerAuth {
  /** True when any token is configured; without one, reports and postbacks do not exist (404). */
  readonly enabled: boolean
  /** The caller; throws the 401 (`unauthorized`) when the bearer token is missing or matches none. */
  authenticate(c: Context): Caller
  /** May this caller read this partner? */
  mayRead(caller: Caller, partnerId: string): boolean
}

export function createPartnerAuth(ctx: MarketplaceContext): PartnerAuth {
  const partners = [...ctx.registry.values()].filter((p) => p.reportsToken !== undefined)
  for (const p of partners) {
    if (p.reportsToken === ctx.reportsToken) {
      // Would let the operator's token pass for this partner's, or the partner read every report.
      throw new Error(
        `partner registry: ${p.id}'s reportsTokenEnv holds REPORTS_TOKEN; give the partner its own`,
      )
    }
  }
  const operator: Array<{ secret: string; value: Caller }> =
    ctx.reportsToken === undefined ? [] : [{ secret: ctx.reportsToken, value: { kind: 'operator' } }]
  const callerOf = createSecretMatcher<Caller>([
    ...operator,
    ...partners.map((partner) => ({
      secret: partner.reportsToken as string,
      value: { kind: 'partner' as const, partner },
    })),
  ])
  return {
    enabled: operator.length > 0 || partners.length > 0,
    authenticate(c) {
      const caller = callerOf(bearerToken(c.req.header('Authorization')))
      if (caller) return caller
      throw httpError(
        401,
        'unauthorized',
        'Send Authorization: Bearer <token>: REPORTS_TOKEN (operator) or your own partner reports token.',
        { headers: { 'WWW-Authenticate': 'Bearer realm="reports"' } },
      )
    },
    mayRead(caller, partnerId) {
      return caller.kind === 'operator' || caller.partner.id === partnerId
    },
  }
}
