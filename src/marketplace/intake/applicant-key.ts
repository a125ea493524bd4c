/**
 * @module The applicant's duplicate key (docs/decisions/0106-duplicate-applicants.md): HMAC-SHA-256 of the
 * SSN's digits and the date of birth, `digits|yyyy-mm-dd`, under a key derived from `SESSION_SECRET` for this
 * purpose alone. Only the key is stored, never the values; keyed, so the ledger cannot be used to test
 * guesses of an SSN offline.
 */
import type { Lead } from '../../contract/partner.ts'
import { keyedHash, purposeKey } from '../../http/server-secret.ts'

export type ApplicantHasher = (lead: Lead) => string

export function createApplicantHasher(secret: string): ApplicantHasher {
  const key = purposeKey(secret, 'offer-widget/applicant-key/v1')
  return (lead) => {
    const { ssn, dateOfBirth } = lead.personalInformation
    return keyedHash(key, `${ssn.replace(/\D/g, '')}|${dateOfBirth}`)
  }
}
