/**
 * @module The ledger's public surface: open it, then record and report through the returned store.
 */
export type { Ledger } from './ledger-store.ts'
export type { LedgerDb, OpenLedgerOptions } from './open-ledger.ts'
export { MIGRATIONS_FOLDER, openLedger } from './open-ledger.ts'
export type { PartnerReportQuery } from './partner-report.ts'
export { clicks, leads, ledgerSchema, offers, partnerRequests } from './schema.ts'
export type {
  CreateLeadResult,
  LeadRow,
  NewLead,
  OfferRecord,
  PartnerReport,
  ReplyRecord,
  RequestStatus,
  SearchSnapshot,
  SentRequest,
  StoredOffer,
  Tier,
  TierClose,
} from './types.ts'
