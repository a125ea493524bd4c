/**
 * @module The ledger's calls on applicants beyond their leads (docs/decisions/0106-duplicate-applicants.md,
 * 0105-consent-records.md): duplicates of the same contact, applications held for review and their release,
 * and the retention sweep's purge, each under the store's timeout.
 */
import { purgeApplicantClaims, purgeConsentRecords } from './consent-records.ts'
import { queryDuplicatesReport, recordDuplicate } from './duplicate-applications.ts'
import {
  listHeldApplications,
  purgeHeldApplications,
  recordHeldApplication,
  releaseHeldApplication,
} from './held-applications.ts'
import { failWithdrawn } from './lead-leases.ts'
import type { LedgerDb } from './ledger-db.ts'
import type { DuplicatesReport } from './report-types.ts'
import type { DuplicateApplication, HeldApplication, HeldApplicationRow } from './types.ts'

/** How long a withdrawn lead's tombstone outlives it: far past any late commit, and the sweep's rounds. */
const TOMBSTONE_KEPT_MS = 24 * 60 * 60 * 1000

/** The ledger's calls on applicants (part of `Ledger`). */
export interface ApplicantCalls {
  /**
   * Deletes consent records and held applications made before `consentBefore`, applicant claims whose window
   * ended before `now`, and withdrawal tombstones a day old; fails the withdrawn leads whose row landed late.
   */
  purgeExpired(expiry: {
    consentBefore: Date
    now: Date
  }): Promise<{ withdrawnLate: number; consentRecords: number; claims: number; heldApplications: number }>
  /** An application refused as a duplicate (no partner was sent it), for the reports. */
  recordDuplicate(duplicate: DuplicateApplication): Promise<void>
  duplicatesReport(range: { from: Date; to: Date }): Promise<DuplicatesReport>
  /** An application held for review (sent to no partner); its search reads back through `getSearch`. */
  recordHeldApplication(held: HeldApplication): Promise<void>
  /** Held applications received in the range, newest first, for the operator's review. */
  heldApplications(query: { from: Date; to: Date; limit: number }): Promise<HeldApplicationRow[]>
  /** Releases the claim that held this application's applicant; false when unknown or released already. */
  releaseHeldApplication(id: string, at: Date): Promise<boolean>
}

type Guard = <T>(operation: string, run: () => Promise<T>) => Promise<T>

export function applicantCalls(db: LedgerDb, guard: Guard): ApplicantCalls {
  return {
    purgeExpired: ({ consentBefore, now }) =>
      guard('purgeExpired', async () => ({
        // Before the tombstones go: a late row is failed while its tombstone still says it was withdrawn.
        withdrawnLate: await failWithdrawn(db, now),
        consentRecords: await purgeConsentRecords(db, consentBefore),
        claims: await purgeApplicantClaims(db, now),
        heldApplications: await purgeHeldApplications(db, {
          before: consentBefore,
          tombstonesBefore: new Date(now.getTime() - TOMBSTONE_KEPT_MS),
        }),
      })),
    recordDuplicate: (duplicate) => guard('recordDuplicate', () => recordDuplicate(db, duplicate)),
    duplicatesReport: (range) => guard('duplicatesReport', () => queryDuplicatesReport(db, range)),
    recordHeldApplication: (held) => guard('recordHeldApplication', () => recordHeldApplication(db, held)),
    heldApplications: (query) => guard('heldApplications', () => listHeldApplications(db, query)),
    releaseHeldApplication: (id, at) =>
      guard('releaseHeldApplication', () => releaseHeldApplication(db, id, at)),
  }
}
