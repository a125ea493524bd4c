/**
 * @module Every string the loan application shows, overridable one by one through the widget's `labels` prop
 * (beside the insurance labels: every key starts with `loan`, so no key means two things). Templates use
 * `{name}` placeholders, filled by `formatLabel` (../labels.ts), so the script tag can pass them as JSON.
 */

export const DEFAULT_LOAN_LABELS = {
  loanHeading: 'Find your loan offers',
  /** The offers' heading once the application is sent (the widget's `heading`, unless the page set one). */
  loanResultsHeading: 'Your loan offers',
  /** The widget's `searching` line while lenders are asked (unless the page set one). */
  loanSearching: 'Asking lenders',
  loanIntro: 'Answer a few questions and lenders will show you what they can offer.',
  /** Beside the progress bar: `{step}` and `{total}`. */
  loanStepOf: 'Step {step} of {total}',
  /** The progress bar's name for assistive tech. */
  loanProgress: 'Application progress',
  loanStepLoan: 'Your loan',
  loanStepAbout: 'About you',
  loanStepAddress: 'Your address',
  loanStepFinances: 'Income and credit',
  loanStepConsent: 'Identity and consent',
  loanBack: 'Back',
  loanNext: 'Continue',
  loanSubmit: 'See my loan offers',
  /** The submit button while the application is being sent. */
  loanSubmitting: 'Sending your application…',
  loanOptional: '(optional)',
  loanChoose: 'Choose…',
  /** Before an amount in US dollars. */
  loanDollar: '$',
  /** The summary above a step with errors (announced); `{count}` fields. */
  loanErrorsOne: 'Please correct the highlighted field.',
  loanErrorsMany: 'Please correct the {count} highlighted fields.',
  /** The server refused details that no field of the application holds. */
  loanRefused: 'We could not send your application with these details. Please check them and try again.',
  /** The BFF answered 409 `duplicate_applicant`: this applicant applied within the window, those offers expired. */
  loanDuplicate:
    'You have already applied recently. Lenders accept one application per person for a few weeks, and the offers from your earlier application have expired. Please try again later.',

  loanPurpose: 'What is the loan for?',
  loanAmount: 'How much do you want to borrow?',
  loanFirstName: 'First name',
  loanLastName: 'Last name',
  loanEmail: 'Email',
  loanPhone: 'Phone number',
  loanDateOfBirth: 'Date of birth (MM/DD/YYYY)',
  loanAddress1: 'Street address',
  loanAddress2: 'Apartment, suite or unit',
  loanCity: 'City',
  loanState: 'State',
  loanZipcode: 'ZIP code',
  loanPropertyStatus: 'Do you rent or own your home?',
  loanEmploymentStatus: 'Employment status',
  loanPayFrequency: 'How often are you paid?',
  loanIncomeKind: 'Your income',
  loanIncomeAnnual: 'Yearly, before taxes',
  loanIncomeMonthly: 'Monthly, after taxes',
  loanAnnualIncome: 'Yearly income before taxes',
  loanMonthlyNetIncome: 'Monthly take-home pay',
  loanCreditKind: 'Your credit',
  loanCreditKnowScore: 'I know my credit score',
  loanCreditPickRating: 'I will pick a rating',
  loanCreditScore: 'Credit score (300 to 850)',
  loanCreditRating: 'Credit rating',
  loanSsn: 'Social Security number',
  loanSsnHint: 'Lenders use it to confirm who you are and to check your credit.',
  /** The toggle (aria-pressed) that shows the number as typed. */
  loanSsnShow: 'Show number',
  loanConsent: 'Your consent',
  loanConsentLoading: 'Loading the consent terms…',
  loanConsentFailed: 'The consent terms could not be loaded. Your application cannot be sent without them.',
  loanConsentRetry: 'Try again',
  /** On a box whose text the operator changed since the visitor saw it (the BFF refused the old one). */
  loanConsentChanged: 'These terms changed since you saw them. Please read them again before you agree.',

  loanPurposeDebtConsolidation: 'Debt consolidation',
  loanPurposeCreditCardRefinancing: 'Credit card refinancing',
  loanPurposeHomeImprovement: 'Home improvement',
  loanPurposeMajorPurchase: 'Major purchase',
  loanPurposeAuto: 'Car or vehicle',
  loanPurposeMedical: 'Medical expenses',
  loanPurposeMoving: 'Moving',
  loanPurposeWedding: 'Wedding',
  loanPurposeVacation: 'Vacation',
  loanPurposeBusiness: 'Business',
  loanPurposeOther: 'Something else',
  loanPropertyRent: 'I rent',
  loanPropertyOwnWithMortgage: 'I own, with a mortgage',
  loanPropertyOwnOutright: 'I own, with no mortgage',
  loanPropertyLiveWithFamily: 'I live with family',
  loanPropertyOther: 'Other',
  loanEmploymentEmployed: 'Employed',
  loanEmploymentSelfEmployed: 'Self-employed',
  loanEmploymentRetired: 'Retired',
  loanEmploymentUnemployed: 'Not employed',
  loanEmploymentStudent: 'Student',
  loanEmploymentOther: 'Other',
  loanPayWeekly: 'Every week',
  loanPayBiweekly: 'Every two weeks',
  loanPaySemimonthly: 'Twice a month',
  loanPayMonthly: 'Once a month',
  loanRatingExcellent: 'Excellent (740 to 850)',
  loanRatingGood: 'Good (670 to 739)',
  loanRatingFair: 'Fair (580 to 669)',
  loanRatingPoor: 'Poor (300 to 579)',

  loanPurposeRequired: 'Choose what the loan is for.',
  loanAmountRequired: 'Enter how much you want to borrow.',
  loanAmountInvalid: 'Enter an amount in dollars greater than 0, like 15000.',
  loanFirstNameRequired: 'Enter your first name.',
  loanLastNameRequired: 'Enter your last name.',
  loanEmailRequired: 'Enter your email address.',
  loanEmailInvalid: 'Enter an email address like name@example.com.',
  loanPhoneRequired: 'Enter your phone number.',
  loanPhoneInvalid: 'Enter a 10-digit US phone number, like 202-555-0147.',
  loanDateOfBirthRequired: 'Enter your date of birth.',
  loanDateOfBirthInvalid: 'Enter a real date of birth in the past.',
  loanDateOfBirthAge: 'You must be 18 or older to apply. Check the date of birth.',
  loanAddress1Required: 'Enter your street address.',
  loanCityRequired: 'Enter your city.',
  loanStateRequired: 'Choose your state.',
  loanZipcodeRequired: 'Enter your ZIP code.',
  loanZipcodeInvalid: 'Enter a 5-digit ZIP code, like 94107.',
  loanEmploymentStatusRequired: 'Choose your employment status.',
  loanPayFrequencyRequired: 'Choose how often you are paid.',
  loanIncomeKindRequired: 'Choose yearly or monthly income.',
  loanAnnualIncomeRequired: 'Enter your yearly income before taxes.',
  loanMonthlyNetIncomeRequired: 'Enter your monthly take-home pay.',
  loanIncomeInvalid: 'Enter an amount in dollars, like 55000.',
  loanCreditKindRequired: 'Choose whether you know your credit score.',
  loanCreditScoreRequired: 'Enter your credit score.',
  loanCreditScoreInvalid: 'Enter a credit score from 300 to 850.',
  loanCreditRatingRequired: 'Choose the rating closest to your credit.',
  loanSsnRequired: 'Enter your Social Security number.',
  loanSsnInvalid: 'Enter the 9 digits of your Social Security number.',
  loanFcraRequired:
    'Check this box to continue: lenders need your permission to check your credit before they can make you an offer.',
  /** A text longer than the lead takes: `{max}` characters. */
  loanTooLong: 'Use at most {max} characters.',
  /** Any other answer the lead does not take. */
  loanInvalid: 'Check this answer.',
}

export type LoanLabels = typeof DEFAULT_LOAN_LABELS

/** The widget's `labels` prop over the defaults: only string values of known keys count (it may hold others). */
export function mergeLoanLabels(given: Partial<LoanLabels> | undefined): LoanLabels {
  const labels = { ...DEFAULT_LOAN_LABELS }
  if (!given) return labels
  for (const key of Object.keys(labels) as (keyof LoanLabels)[]) {
    const value: unknown = given[key]
    if (typeof value === 'string') labels[key] = value
  }
  return labels
}
