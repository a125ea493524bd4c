/**
 * @module The keyed hash of a partner's raw `lead_id` (docs/partner-interface.md#conversions): stored
 * beside the masked id, so a conversion posted with the id the partner really sent matches its lead, and two
 * ids masked alike never collide. Keyed (HMAC-SHA-256) so the ledger cannot be used to test guesses of an id
 * that embeds a lead's SSN or phone number offline.
 */
import { keyedHash, purposeKey } from '../../http/server-secret.ts'

export type PartnerLeadIdHasher = (rawLeadId: string) => string

/**
 * `key` is `LEAD_ID_HASH_SECRET` when set, else derived from `SESSION_SECRET`: rotate SESSION_SECRET with
 * LEAD_ID_HASH_SECRET set to the old derivation's secret, or conversions of earlier leads stop matching.
 */
export function createPartnerLeadIdHasher(secret: string, key?: string): PartnerLeadIdHasher {
  // The derived key is used as its hex text, as since v1: hashes already stored keep matching.
  const material = key ?? purposeKey(secret, 'offer-widget/partner-lead-id/v1').toString('hex')
  return (raw) => keyedHash(material, raw)
}
