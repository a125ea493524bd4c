/**
 * @module `offer-widget/labels`: the label packs as plain data, with no client boundary, so a server
 * component (or any server code) can pick a pack and pass it to `<OfferWidget labels={...}>`.
 */

export type { Labels } from './labels.ts'
export { DEFAULT_LABELS } from './labels.ts'
export { LABELS_ES_US } from './labels-es-us.ts'
export type { LoanLabels } from './loan-application/loan-labels.ts'
export { DEFAULT_LOAN_LABELS } from './loan-application/loan-labels.ts'
