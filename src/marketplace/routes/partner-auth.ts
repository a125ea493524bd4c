/**
 * @module Who is asking, from the bearer token: the operator (`REPORTS_TOKEN`, reads every partner) or one
 * partner (its registry `reportsTokenEnv`, reads only itself and posts its own conversions). Every token is
 * compared in constant time, all of them on every request, so timing tells nothing about which matched.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
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
  const digest = (value: string) => createHash('sha256').update(value).digest()
  const operator = ctx.reportsToken === undefined ? undefined : digest(ctx.reportsToken)
  const keyed = partners.map((partner) => ({ partner, digest: digest(partner.reportsToken as string) }))
  return {
    enabled: operator !== undefined || keyed.length > 0,
    authenticate(c) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')
      const given = digest(match?.[1] ?? '')
      let caller: Caller | undefined
      if (operator && timingSafeEqual(given, operator)) caller = { kind: 'operator' }
      for (const k of keyed)
        if (timingSafeEqual(given, k.digest)) caller ??= { kind: 'partner', partner: k.partner }
      if (match && caller) return caller
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
