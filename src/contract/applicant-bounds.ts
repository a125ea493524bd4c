/**
 * @module What a real loan applicant can be (docs/partner-interface.md#applicants-a-partner-is-never-sent):
 * an adult born in the past, with an SSN the Social Security Administration issues, asking for an amount and
 * declaring an income a lender could really see. The lead schema (lead.ts) holds the bounds a number has
 * whatever the day; `applicantProblems` adds what depends on the day and on the server's mode. Plain values
 * and predicates: the loan application's chunk reads the bounds too.
 */
import { isRealDate } from './common.ts'
import { ageOn } from './search-fields.ts'

/** Contracts with minors are voidable, and no lender takes one. */
export const MIN_APPLICANT_AGE = 18
/** Older than any living person: a typo (`1090` for `1990`), never an applicant. */
const MAX_APPLICANT_AGE = 120
/** USD. Below this no lender writes a loan; above it the lead is a typo or a probe (`1e308`). */
export const MIN_LOAN_AMOUNT_USD = 100
export const MAX_LOAN_AMOUNT_USD = 1_000_000
/** USD a year, and a month net: far above any applicant, far below a number that loses its cents. */
export const MAX_ANNUAL_INCOME_USD = 10_000_000
export const MAX_MONTHLY_NET_INCOME_USD = 1_000_000

/**
 * The SSA's advertising range, 987-65-4320 to 987-65-4329: never issued, so no real person's, which is why
 * the sandbox's sample applicants use it. Accepted only where sample applicants are (sandbox mode).
 */
const SAMPLE_SSN = /^98765432\d$/

/** True for an SSN of the SSA's advertising range (sample applicants), however it is punctuated. */
export function isSampleSsn(ssn: string): boolean {
  return SAMPLE_SSN.test(ssn.replace(/\D/g, ''))
}

/** Why the SSA never issued this SSN (area 000, 666 or 900-999; group 00; serial 0000), or undefined. */
function unissuedSsnReason(ssn: string): string | undefined {
  const digits = ssn.replace(/\D/g, '')
  const area = digits.slice(0, 3)
  if (area === '000' || area === '666' || area >= '900') {
    return `its area number (the first three digits, ${area}) is never issued: not 000, 666 or 900-999`
  }
  if (digits.slice(3, 5) === '00') return 'its group number (the middle two digits) is never 00'
  if (digits.slice(5) === '0000') return 'its serial number (the last four digits) is never 0000'
  return undefined
}

/** A lead's applicant as `applicantProblems` judges it. */
export interface ApplicantFacts {
  personalInformation: { dateOfBirth: string; ssn: string }
}

export interface ApplicantIssue {
  field: string
  reason: string
}

/**
 * What makes this applicant impossible on `today` (the server's UTC date, never ahead of a US visitor's):
 * an age outside 18-120 or a birth in the future, or an SSN never issued (the sample range only when
 * `sampleSsns`). Empty when the applicant could be real.
 */
export function applicantProblems(
  facts: ApplicantFacts,
  today: Date,
  options: { sampleSsns: boolean },
): ApplicantIssue[] {
  const issues: ApplicantIssue[] = []
  const { dateOfBirth, ssn } = facts.personalInformation
  const iso = today.toISOString().slice(0, 10)
  if (isRealDate(dateOfBirth)) {
    const age = ageOn(dateOfBirth, iso)
    if (dateOfBirth > iso) {
      issues.push({
        field: 'personalInformation.dateOfBirth',
        reason: `must be in the past, not ${dateOfBirth}: send the applicant's date of birth`,
      })
    } else if (age < MIN_APPLICANT_AGE || age > MAX_APPLICANT_AGE) {
      issues.push({
        field: 'personalInformation.dateOfBirth',
        reason: `makes the applicant ${age}: an applicant is ${MIN_APPLICANT_AGE} to ${MAX_APPLICANT_AGE} years old`,
      })
    }
  }
  const digits = ssn.replace(/\D/g, '')
  const unissued = options.sampleSsns && isSampleSsn(digits) ? undefined : unissuedSsnReason(digits)
  if (unissued !== undefined) {
    issues.push({
      field: 'personalInformation.ssn',
      reason: `is not an SSN the Social Security Administration issues: ${unissued}`,
    })
  }
  return issues
}
