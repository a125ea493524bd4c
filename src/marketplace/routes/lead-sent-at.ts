/**
 * @module When the partner was first sent a lead it answered with this `lead_id`: the earliest a conversion
 * of it can have happened. Matched as `recordConversion` matches (keyed hash, or the raw id on rows written
 * before ids were hashed). The earliest of them, not the one the conversion will be recorded against, so a
 * partner that reuses ids is never refused a true date. It belongs in the ledger's `recordConversion`,
 * which src/ledger's owners may fold it into; until then it runs under the ledger's own timeout and error.
 */
import { and, eq, isNull, min, or } from 'drizzle-orm'
import { type Ledger, partnerRequests } from '../../ledger/index.ts'
import { withTimeout } from '../../ledger/ledger-error.ts'
import type { Timers } from '../../timers.ts'

export function firstSentAt(
  ledger: Ledger,
  timers: Timers,
  partner: { partnerId: string; partnerLeadId: string; partnerLeadIdHash: string },
): Promise<Date | undefined> {
  return withTimeout(timers, ledger.timeoutMs, 'firstSentAt', async () => {
    const [row] = await ledger.db
      .select({ sentAt: min(partnerRequests.sentAt) })
      .from(partnerRequests)
      .where(
        and(
          eq(partnerRequests.partnerId, partner.partnerId),
          or(
            eq(partnerRequests.partnerLeadIdHash, partner.partnerLeadIdHash),
            and(
              isNull(partnerRequests.partnerLeadIdHash),
              eq(partnerRequests.partnerLeadId, partner.partnerLeadId),
            ),
          ),
        ),
      )
    return row?.sentAt ?? undefined
  })
}
