/**
 * @module Each offer-search field's bounds, written once (issue 45, "one search-field definition"): the
 * BFF's zod schemas (offer-search.ts, lead.ts's ZIP words), the widget form's checks (widget/form-values.ts),
 * the script tag's attribute readers (embed/data-attributes.ts), the widget's options table
 * (widget/widget-options.ts) and the loan application's date-of-birth rules (the visitor's calendar, 1900)
 * read them from here; test/widget/labels.test.ts holds the labels that state a bound to it. Plain values
 * and predicates, no zod of its own: the script-tag bundle carries this module.
 */
import { isRealDate } from './common.ts'

/** `personalInformation.zipCode`: ZIP or ZIP+4 (common.ts `ZIP_PATTERN`), said so in every message. */
export const ZIP_CODE_SAYS = 'a 5-digit ZIP code (or ZIP+4)'
/**
 * `personalInformation.dateOfBirth`: a real past date, not before this one, of a driver carriers rate
 * (docs/offer-search-api.md#the-search-form: a licence from 16, and 100 at most). The BFF checks only that
 * it is a real date (common.ts `realDate`): the age depends on the visitor's calendar, which the form and
 * the attribute reader read.
 */
export const EARLIEST_DATE_OF_BIRTH = '1900-01-01'
export const MIN_DRIVER_AGE = 16
export const MAX_DRIVER_AGE = 100
/** `autoInsuranceInformation.currentIssuer`: an issuer id (rate-table.ts `issuerSchema`), or `notinsured`. */
export const MAX_ISSUER_LENGTH = 200
/** `autoInsuranceInformation.numberOfVehicles`: a whole number in this range. */
export const MIN_VEHICLES = 1
export const MAX_VEHICLES = 20
/** `clientTags.subId`: docs/offer-search-api.md, at most this many tags; each non-empty, at most this long. */
export const MAX_SUB_IDS = 10
export const MAX_SUB_ID_LENGTH = 100

/** Whole years from `dob` to `today` (both `YYYY-MM-DD`): a birthday not yet reached this year does not count. */
export function ageOn(dob: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(dob.slice(0, 4))
  return today.slice(5) < dob.slice(5) ? years - 1 : years
}

/** The visitor's calendar date as `YYYY-MM-DD`: a birthday is reached by their clock, not UTC's. */
export function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/**
 * What is wrong with a date of birth on `today`: `invalid` (not a real date, not in the past, or before
 * `earliest`) or `age` (a driver younger or older than carriers rate); `undefined` when it is fine.
 */
export function dateOfBirthProblem(dob: string, today: Date): 'invalid' | 'age' | undefined {
  const iso = localIsoDate(today)
  if (!isRealDate(dob) || dob >= iso || dob < EARLIEST_DATE_OF_BIRTH) return 'invalid'
  const age = ageOn(dob, iso)
  return age < MIN_DRIVER_AGE || age > MAX_DRIVER_AGE ? 'age' : undefined
}

/** A number of vehicles within the bounds: a whole number, `min` to `max`. */
export function isNumberOfVehicles(n: number): boolean {
  return Number.isInteger(n) && n >= MIN_VEHICLES && n <= MAX_VEHICLES
}

/** `clientTags.subId` within the bounds: at most `maxTags` tags, each 1 to `maxLength` characters. */
export function isSubIdList(tags: readonly string[]): boolean {
  return tags.length <= MAX_SUB_IDS && tags.every((tag) => tag.length >= 1 && tag.length <= MAX_SUB_ID_LENGTH)
}
