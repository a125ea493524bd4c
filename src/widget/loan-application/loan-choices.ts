/**
 * @module The values the loan application offers for the lead's enumerated fields, each with the key of its
 * label. docs/partner-interface.md leaves these allowed values "not shown"; we send snake_case values, the ones
 * the partner kit already uses (src/partner-kit/sample-leads.ts: `debt_consolidation`, `home_improvement`,
 * `other`, `rent`, `employed`, `unemployed`, `biweekly`), and the credit ratings the reference partner prices
 * (src/partner-kit/reference-rules.ts) in its four tiers, banded as its `SCORE_BANDS`. This table is the list
 * docs/partner-interface.md points partners at.
 */
import { US_STATES, type UsState } from '../../contract/lead.ts'
import type { LoanLabels } from './loan-labels.ts'

/** One option of a select: the value sent in the lead and the label key its text comes from. */
export type LoanChoice = readonly [value: string, label: keyof LoanLabels]

export const LOAN_CHOICES = {
  purpose: [
    ['debt_consolidation', 'loanPurposeDebtConsolidation'],
    ['credit_card_refinancing', 'loanPurposeCreditCardRefinancing'],
    ['home_improvement', 'loanPurposeHomeImprovement'],
    ['major_purchase', 'loanPurposeMajorPurchase'],
    ['auto', 'loanPurposeAuto'],
    ['medical', 'loanPurposeMedical'],
    ['moving', 'loanPurposeMoving'],
    ['wedding', 'loanPurposeWedding'],
    ['vacation', 'loanPurposeVacation'],
    ['business', 'loanPurposeBusiness'],
    ['other', 'loanPurposeOther'],
  ],
  propertyStatus: [
    ['rent', 'loanPropertyRent'],
    ['own_with_mortgage', 'loanPropertyOwnWithMortgage'],
    ['own_outright', 'loanPropertyOwnOutright'],
    ['live_with_family', 'loanPropertyLiveWithFamily'],
    ['other', 'loanPropertyOther'],
  ],
  employmentStatus: [
    ['employed', 'loanEmploymentEmployed'],
    ['self_employed', 'loanEmploymentSelfEmployed'],
    ['retired', 'loanEmploymentRetired'],
    ['unemployed', 'loanEmploymentUnemployed'],
    ['student', 'loanEmploymentStudent'],
    ['other', 'loanEmploymentOther'],
  ],
  employmentPayFrequency: [
    ['weekly', 'loanPayWeekly'],
    ['biweekly', 'loanPayBiweekly'],
    ['semimonthly', 'loanPaySemimonthly'],
    ['monthly', 'loanPayMonthly'],
  ],
  providedCreditRating: [
    ['excellent', 'loanRatingExcellent'],
    ['good', 'loanRatingGood'],
    ['fair', 'loanRatingFair'],
    ['poor', 'loanRatingPoor'],
  ],
} as const satisfies Record<string, readonly LoanChoice[]>

export type ChoiceField = keyof typeof LOAN_CHOICES

/**
 * The states' names as the USPS writes them. Proper names, shown beside their code in every language (US
 * Spanish forms keep them too), so they are data here rather than 53 labels.
 */
const STATE_NAMES: Record<UsState, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  DC: 'District of Columbia',
  PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands',
}

/** The 53 values of `personalInformation.state`, alphabetical by name as a visitor looks for theirs. */
export const STATE_OPTIONS: ReadonlyArray<{ value: UsState; name: string }> = US_STATES.map((value) => ({
  value,
  name: STATE_NAMES[value],
})).sort((a, b) => a.name.localeCompare(b.name, 'en'))
