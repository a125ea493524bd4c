/**
 * @module The ledger's public surface: open it, then record and report through the returned store.
 */

export type { ApplicantCalls } from './applicant-calls.ts'
export type { ConsentRecordQuery } from './consent-records.ts'
export { instrumentLedger } from './instrument-ledger.ts'
export type { LedgerDb } from './ledger-db.ts'
export { LedgerError } from './ledger-error.ts'
export type { Ledger } from './ledger-store.ts'
export type { OpenLedgerOptions } from './open-ledger.ts'
export { MIGRATIONS_FOLDER, openLedger } from './open-ledger.ts'
export type { PartnerReportQuery } from './partner-report.ts'
export type { PlacementsQuery } from './placements-report.ts'
export type {
  BreakdownDimension,
  BreakdownRow,
  ContractPays,
  DuplicatesReport,
  PartnerReport,
  PlacementReportRow,
  PlacementsReport,
  ReplyCause,
  ReplyStats,
  SuppressedLead,
  SuppressionList,
} from './report-types.ts'
export type { SuppressionQuery } from './suppression-list.ts'
export type {
  ApplicantClaim,
  ClaimedLead,
  ConsentRecord,
  ConsentTextRecord,
  ConversionInput,
  ConversionRecord,
  CreateLeadResult,
  DuplicateApplication,
  FirstApplication,
  HeldApplication,
  HeldApplicationRow,
  HeldReason,
  LeadRow,
  NewConsentRecord,
  NewLead,
  OfferOutcome,
  OfferRecord,
  OfferSettlement,
  PartnerLeadRef,
  RecordConversionResult,
  ReplyRecord,
  RequestProgress,
  RequestStatus,
  SearchEvent,
  SearchSnapshot,
  SentRequest,
  StoredOffer,
  Tier,
  TierClose,
} from './types.ts'
