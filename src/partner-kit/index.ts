/**
 * @module Public surface of the partner kit: the reference partner (server, pure answer, rules), the
 * conformance checker, and the sandbox's simulated partners.
 */

export type { AnswerOptions } from './answer-lead.ts'
export { ANSWER_DEFAULTS, answerLead, answerUnparseable } from './answer-lead.ts'
export { runCli } from './cli.ts'
export type { CheckPartnerOptions, ConformanceReport, LeadResult } from './conformance-checker.ts'
export {
  ABORT_MARGIN_MS,
  checkPartner,
  RESPONSE_WINDOW_MS,
  SYNTHETIC_HEADER,
} from './conformance-checker.ts'
export { formatReport } from './format-report.ts'
export type { LatencySummary } from './latency.ts'
export { summarizeLatency } from './latency.ts'
export { deriveLeadId } from './lead-id.ts'
export type { ReferencePartnerOptions } from './reference-partner.ts'
export { createReferencePartner, LEAD_PATHS } from './reference-partner.ts'
export type { CreditTier, Decision, OfferDecision, ProductRule, ProductType } from './reference-rules.ts'
export {
  annualIncome,
  creditTier,
  decideLead,
  loanTerms,
  PRODUCT_RULES,
  SCORE_BANDS,
} from './reference-rules.ts'
export type { CheckFailure, CheckResult, Exchange } from './reply-checks.ts'
export { CHECKS, evaluateExchanges } from './reply-checks.ts'
export type { SampleLead } from './sample-leads.ts'
export { sampleLeads } from './sample-leads.ts'
export type {
  SimulatedBehavior,
  SimulatedPartnerSpec,
  SimulatedPartners,
  StartSimulatedPartnersOptions,
} from './simulated-partners.ts'
export { defaultSimulatedPartners, startSimulatedPartners } from './simulated-partners.ts'
export type { RunningPartner, StartReferencePartnerOptions } from './start-reference-partner.ts'
export { startReferencePartner } from './start-reference-partner.ts'
