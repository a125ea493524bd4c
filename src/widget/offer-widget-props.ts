/**
 * @module `<OfferWidget>`'s props: what a publisher passes, each with what it does and its default. The
 * playground's props table and the docs site's reference pages are read from these types and comments.
 */
import type { LeadInput } from '../contract/lead.ts'
import type { OfferSource } from './bff-client.ts'
import type { PositionedOffer } from './display-rules.ts'
import type { OfferWidgetEvent } from './events/widget-event.ts'
import type { Labels } from './labels.ts'
import type { LoanLabels } from './loan-application/loan-labels.ts'
import type { LeadPrefill } from './loan-application/loan-values.ts'
import type { SearchCompleteEvent, SearchCreatedEvent } from './offer-search.ts'
import type { PixelTracker } from './pixel-tracker.ts'
import type { SearchData } from './search-input.ts'
import type { AttachedSearch } from './search-request.ts'
import type { ThemePreset, ThemeVariables } from './theme.ts'
import type { OfferWidgetError } from './widget-error.ts'

export type FormMode = 'auto' | 'always' | 'never'

export interface OfferWidgetProps {
  /** Base URL of the BFF; `''` (default) is the page's own origin. */
  endpoint?: string
  /** `offer-search` (default) or `second-look`. */
  source?: OfferSource
  /** What the page already knows about the visitor (offer searches). */
  search?: SearchData
  /**
   * `second-look` only. A complete lead (`legalInformation.consentsToFcra` is `"true"`: the publisher's own
   * application collected it, docs/partner-interface.md) is sent as given; anything less prefills the widget's
   * own loan application, which sends the lead once the visitor has completed it (ApplicationGate.tsx).
   */
  lead?: LeadInput | LeadPrefill
  /** Show a search the publisher created on its server instead of creating one. */
  attach?: AttachedSearch
  /**
   * `auto` (default): search at once when a ZIP code is known, else ask for the missing fields first.
   * `always`: always show the form (all fields, prefilled). `never`: search with what is given.
   */
  form?: FormMode
  /** Previews link to `unmonetizedUrl` and fire no pixels, so they are never tracked. */
  preview?: boolean
  /** Override any visible string: the widget's (`DEFAULT_LABELS`) and its loan application's (`DEFAULT_LOAN_LABELS`). */
  labels?: Partial<Labels & LoanLabels>
  /** `light` (default) or `dark`. */
  theme?: ThemePreset
  /** Any `--ow-*` custom property, e.g. `{ '--ow-color-accent': '#0a7' }`. */
  themeVariables?: ThemeVariables
  /** When a search completes with no offers: `message` (default) shows `labels.noOffers`, `hide` renders nothing. */
  emptyState?: 'message' | 'hide'
  /** Offer cards shown before the visitor asks for more (default 3): the widget's height stays known. */
  initialOffers?: number
  /**
   * The publisher's advertiser disclosure page, linked as "Advertiser disclosure" beside the `labels.sponsored`
   * tag. Without it that control opens the widget's own sentence, `labels.disclosureText`.
   */
  disclosureUrl?: string
  /** Heading level of the widget's title (default 2); card titles use the next level. */
  headingLevel?: 2 | 3 | 4 | 5
  /**
   * Puts the widget's `<style>` into `document.head` (or the shadow root it renders in), once. Set false
   * when the host delivers the CSS itself (the script-tag embed adopts it into its shadow root).
   */
  injectStyles?: boolean
  /** CSP nonce for the injected `<style>`. */
  nonce?: string
  className?: string
  /** Advanced: where impression pixels are recorded and fired. Default: once per page view. */
  pixelTracker?: PixelTracker
  /** `dataLayer`: push GA4's ecommerce events and the widget's own to `window.dataLayer` (docs/events.md). */
  analytics?: 'dataLayer'
  /**
   * Your id for where this widget sits ("home-hero", "quote-sidebar"): sent with the search or lead so the
   * BFF's placement report tells your revenue per placement, and the list's name in `dataLayer`
   * (docs/placements.md). Letters, digits, `_`, `-` and `.`, at most 40.
   */
  placement?: string
  /** Every event of the widget's contract, one discriminated union (docs/events.md). */
  onEvent?: (event: OfferWidgetEvent) => void
  onSearchCreated?: (event: SearchCreatedEvent) => void
  /** Offers that appeared on screen since the last call (each offer reported once), each with its slot. */
  onOffersShown?: (offers: PositionedOffer[]) => void
  onOfferClick?: (offer: PositionedOffer) => void
  onComplete?: (event: SearchCompleteEvent) => void
  onError?: (error: OfferWidgetError) => void
}
