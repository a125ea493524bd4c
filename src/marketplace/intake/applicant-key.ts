/**
 * @module The applicant's keys (docs/decisions/0106-duplicate-applicants.md), each an HMAC-SHA-256 under a
 * key derived from `SESSION_SECRET` for that purpose alone, so the ledger cannot be used to test guesses
 * offline and only the keys are stored, never the values:
 * - the applicant: the SSN's digits and the date of birth, `digits|yyyy-mm-dd`;
 * - the contact: the email (trimmed, lower case) and the phone's last ten digits, `email|phone`: who applied;
 *   only the same contact is answered with an applicant's earlier search;
 * - the SSN alone: one SSN's live claims across dates of birth are capped. The sandbox's sample SSNs (the
 *   SSA's advertising range, no person's) have none, so its benches may send them as often as they like.
 */
import { isSampleSsn } from '../../contract/applicant-bounds.ts'
import type { Lead } from '../../contract/partner.ts'
import { keyedHash, purposeKey } from '../../http/server-secret.ts'

interface ApplicantKeys {
  applicant: string
  contact: string
  /** Undefined for a sample SSN in sandbox mode. */
  ssn: string | undefined
}

export type ApplicantHasher = (lead: Lead) => ApplicantKeys

export function createApplicantHasher(secret: string, options: { sampleSsns: boolean }): ApplicantHasher {
  const applicantKey = purposeKey(secret, 'offer-widget/applicant-key/v1')
  const contactKey = purposeKey(secret, 'offer-widget/applicant-contact/v1')
  const ssnKey = purposeKey(secret, 'offer-widget/applicant-ssn/v1')
  return (lead) => {
    const { ssn, dateOfBirth, email, primaryPhone } = lead.personalInformation
    const digits = ssn.replace(/\D/g, '')
    const phone = primaryPhone.replace(/\D/g, '').slice(-10)
    return {
      applicant: keyedHash(applicantKey, `${digits}|${dateOfBirth}`),
      contact: keyedHash(contactKey, `${email.trim().toLowerCase()}|${phone}`),
      ssn: options.sampleSsns && isSampleSsn(digits) ? undefined : keyedHash(ssnKey, digits),
    }
  }
}
