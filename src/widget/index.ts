'use client'
/**
 * @module Public entry of the React widget: the component, the hook, and their types. Nothing else is
 * part of the package's contract. A client boundary (`'use client'`, kept in the built file by
 * config/vite.widget.config.ts): a Next.js server component imports `<OfferWidget>` from here and renders it.
 * Plain data a server component reads (the label packs) is in `offer-widget/labels` instead.
 */

export type { LeadInput } from '../contract/lead.ts'
export type { OfferSource } from './bff-client.ts'
export { OfferWidget } from './checked-widget.tsx'
export type { DisplayOffer, PositionedOffer } from './display-rules.ts'
export type {
  EventOffer,
  OfferWidgetEvent,
  OfferWidgetEventType,
  WidgetForm,
} from './events/widget-event.ts'
export type { Labels } from './labels.ts'
export { DEFAULT_LABELS } from './labels.ts'
export { LABELS_ES_US } from './labels-es-us.ts'
export type { LoanLabels } from './loan-application/loan-labels.ts'
export { DEFAULT_LOAN_LABELS } from './loan-application/loan-labels.ts'
export type { LeadPrefill } from './loan-application/loan-values.ts'
export type {
  OfferSearch,
  OfferSearchOptions,
  OfferSearchResult,
  SearchCompleteEvent,
  SearchCreatedEvent,
} from './offer-search.ts'
export { createOfferSearch } from './offer-search.ts'
export type { FormMode, OfferWidgetProps } from './offer-widget-props.ts'
export type { SearchData } from './search-input.ts'
export type { AttachedSearch } from './search-request.ts'
export type { SearchStatus } from './search-status.ts'
export type { Disclaimer } from './seen-partners.ts'
export type { ThemePreset, ThemeVariable, ThemeVariables } from './theme.ts'
export type { UseOfferSearchOptions } from './useOfferSearch.ts'
export { useOfferSearch } from './useOfferSearch.ts'
export type { FieldError, WidgetErrorKind } from './widget-error.ts'
export { OfferWidgetError } from './widget-error.ts'
