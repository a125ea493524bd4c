/**
 * @module Every string the widget shows, overridable one by one through the `labels` prop. Templates use
 * `{name}` placeholders rather than functions so the script-tag embed can pass them as plain JSON.
 */

export const DEFAULT_LABELS = {
  /** Shown on the server and before hydration. */
  loading: 'Loading offers…',
  formHeading: 'Compare auto insurance rates',
  formIntro: 'Tell us a little about you to see your offers.',
  zipCode: 'ZIP code',
  dateOfBirth: 'Date of birth',
  currentIssuer: 'Current insurer',
  notInsured: 'Not currently insured',
  /** Opens the list of insurers. */
  insured: 'Currently insured',
  /** The list's name for assistive tech (its legend is not drawn: "Currently insured" is just above). */
  chooseIssuer: 'Your insurer',
  issuersLoading: 'Loading insurers…',
  issuersUnavailable: 'The list of insurers could not be loaded. You can skip this question.',
  numberOfVehicles: 'Number of vehicles',
  choose: 'Choose…',
  isHomeOwner: 'Do you own your home?',
  isMilitary: 'Are you active-duty military, a veteran, or in a military family?',
  yes: 'Yes',
  no: 'No',
  optional: '(optional)',
  submit: 'See my rates',
  zipCodeRequired: 'Enter your ZIP code.',
  zipCodeInvalid: 'Enter a 5-digit ZIP code, like 94107.',
  /** `00000` (or `00000-0000`): shaped like a ZIP, but no place has it. */
  zipCodeZeros: 'That ZIP code does not exist. Enter the ZIP code where you live.',
  dateOfBirthInvalid: 'Enter a real date of birth in the past.',
  /** The driver is younger than 16 or older than 100: no carrier rates that. */
  dateOfBirthAge: 'Drivers must be between 16 and 100 years old. Check the date of birth.',
  numberOfVehiclesInvalid: 'Choose a number of vehicles from 1 to 20.',
  currentIssuerInvalid: 'Choose your current insurer from the list, or “Not currently insured”.',
  choiceInvalid: 'Choose yes or no.',
  /** The offer service refused details that no field of the form holds. */
  searchRefused: 'We could not search with these details. Please check them and try again.',
  formErrors: 'Please correct the highlighted fields.',
  heading: 'Your auto insurance offers',
  starting: 'Starting your search…',
  searching: 'Searching insurers',
  /** Offers shown so far and sources still pending: what the visitor sees, not partner bookkeeping. */
  progress: '{offers} so far, still checking {sources}',
  /** Before any offer: the sources being asked. */
  progressNone: 'Checking {sources} for offers…',
  offersOne: '1 offer',
  offersMany: '{count} offers',
  sourcesOne: '1 source',
  sourcesMany: '{count} sources',
  /** Second look, while lenders are asked: `{lenders}`, `{answered}`, `{total}` and `{seconds}` left at most. */
  lenderProgress: 'Asking {lenders} · {answered} answered · up to {seconds} s left',
  /** The same when the server did not say how long the wait is. */
  lenderProgressOpen: 'Asking {lenders} · {answered} answered',
  lendersOne: '1 lender',
  lendersMany: '{count} lenders',
  /** Polling failed for good with offers already on screen: they stay, with this line. */
  partial: 'Some quotes could not be loaded. The offers below are still available.',
  newOffer: '1 new offer',
  newOffers: '{count} new offers',
  complete: 'Search complete: {count} offers.',
  completeOne: 'Search complete: 1 offer.',
  /** The status line of a search that found nothing (the message below it says so). */
  completeNone: 'Search complete.',
  /**
   * After `complete` or `partial` in the live region: `{shown}` on screen (`offersOne`/`offersMany`), `{first}`
   * the first card's company (`{best}` too, the name it had before). No superlative: the order is the one
   * partners' ranks and bids give, which a visitor must not read as our recommendation.
   */
  showingBest: 'Showing {shown}, starting with {first}.',
  noOffers: 'No offers matched your details right now.',
  error: 'We could not load offers right now. Please try again.',
  /** The BFF refused this browser (its user agent names a crawler, script or headless browser): no retry. */
  refused: 'Offers cannot be shown in this browser.',
  tryAgain: 'Try again',
  viewRate: 'View rate',
  moreDetails: 'More details',
  fewerDetails: 'Fewer details',
  moreOffers: 'Show {count} more',
  changeDetails: 'Change details',
  noOffersNext: 'Different details can match other offers.',
  sponsored: 'Sponsored',
  disclosure: 'Advertiser disclosure',
  /** Shown by "Advertiser disclosure" when the publisher set no `disclosureUrl`. */
  disclosureText:
    'The companies whose offers appear here may pay us when you view or choose an offer. That can affect which offers appear and their order. Not every company or offer available to you is shown.',
  opensInNewTab: 'opens in a new tab',
  disclaimers: 'Disclaimers',
  /** On a card whose quoting partner is not the carrier; several partners are joined with "or". */
  quoteVia: 'Quote via {partner}',
  /** On a card with a disclaimer in the Disclaimers block: moves to it. */
  seeDisclaimer: 'Disclaimer',
  /** After a disclaimer's partner: the carriers on screen it covers, joined with "and". */
  disclaimerFor: 'for {carriers}',
  /** A loan offer's figures (docs/partner-interface.md, "Loan terms"). */
  termsApr: 'APR',
  termsAmount: 'Loan amount',
  termsTerm: 'Term',
  /** `{months}`: one number or a range ("24–60"). */
  termsMonths: '{months} months',
  termsMonthly: 'Est. monthly payment',
  termsFee: 'Origination fee',
  /** The language of these labels (BCP 47), set as the widget's `lang` so assistive tech reads it in that voice. */
  lang: 'en',
}

export type Labels = typeof DEFAULT_LABELS

/** Fills `{name}` placeholders; unknown names are left as written so a typo is visible, not silent. */
export function formatLabel(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  )
}

/** Names as a sentence in the labels' language: "A, B and C" (`conjunction`) or "A or B" (`disjunction`). */
export function joinNames(
  names: readonly string[],
  lang: string,
  type: 'conjunction' | 'disjunction',
): string {
  return new Intl.ListFormat(lang, { style: 'long', type }).format(names)
}

/** `{count}` in the singular or plural label: "1 offers" reads as a bug to a visitor. */
export function countLabel(one: string, many: string, count: number): string {
  return count === 1 ? one : formatLabel(many, { count })
}

/** The completion line, singular for one offer ("1 offers" reads as a bug to a visitor). */
export function completeLabel(labels: Pick<Labels, 'complete' | 'completeOne'>, count: number): string {
  return countLabel(labels.completeOne, labels.complete, count)
}
