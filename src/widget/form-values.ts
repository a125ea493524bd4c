/**
 * @module The form's values (strings, as inputs hold them), their validation, and the mapping of the
 * BFF's field errors (`personalInformation.zipCode`) onto form fields.
 */
import { isRealDate, ZIP_PATTERN } from '../contract/common.ts'
import type { Labels } from './labels.ts'
import { FORM_FIELDS, type FormField, type SearchData } from './search-input.ts'

export type YesNo = '' | 'yes' | 'no'

export interface FormValues {
  zipCode: string
  dateOfBirth: string
  currentIssuer: string
  numberOfVehicles: string
  isHomeOwner: YesNo
  isMilitary: YesNo
}

export type FieldErrors = Partial<Record<FormField, string>>

const yesNo = (value: boolean | undefined): YesNo => (value === undefined ? '' : value ? 'yes' : 'no')
const fromYesNo = (value: YesNo): boolean | undefined => (value === '' ? undefined : value === 'yes')

export function toFormValues(data: SearchData): FormValues {
  return {
    zipCode: data.zipCode ?? '',
    dateOfBirth: data.dateOfBirth ?? '',
    currentIssuer: data.currentIssuer ?? '',
    numberOfVehicles: data.numberOfVehicles === undefined ? '' : String(data.numberOfVehicles),
    isHomeOwner: yesNo(data.isHomeOwner),
    isMilitary: yesNo(data.isMilitary),
  }
}

/** The page's data with the visitor's answers on top; blank answers leave the page's value alone. */
export function fromFormValues(values: FormValues, given: SearchData): SearchData {
  const merged: SearchData = { ...given }
  const zip = values.zipCode.trim()
  if (zip) merged.zipCode = zip
  if (values.dateOfBirth) merged.dateOfBirth = values.dateOfBirth
  if (values.currentIssuer) merged.currentIssuer = values.currentIssuer
  if (values.numberOfVehicles) merged.numberOfVehicles = Number(values.numberOfVehicles)
  const home = fromYesNo(values.isHomeOwner)
  if (home !== undefined) merged.isHomeOwner = home
  const military = fromYesNo(values.isMilitary)
  if (military !== undefined) merged.isMilitary = military
  return merged
}

/** The driver ages carriers rate (docs/offer-search-api.md#the-search-form): a licence from 16, and 100 at most. */
const MIN_DRIVER_AGE = 16
const MAX_DRIVER_AGE = 100

/** Whole years from `dob` to `today` (both `YYYY-MM-DD`): a birthday not yet reached this year does not count. */
export function ageOn(dob: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(dob.slice(0, 4))
  return today.slice(5) < dob.slice(5) ? years - 1 : years
}

/**
 * `00000` is shaped like a ZIP but no place has it. Other ZIPs starting `000` do not exist either, but the
 * sandbox's scenario ZIPs (`00001`...) use that range on purpose, so only all zeros is refused here; the
 * upstream judges the rest.
 */
function isAllZeros(zip: string): boolean {
  return /^0{5}(-0{4})?$/.test(zip)
}

/** Only the ZIP is required (it is what starts a search); the rest is validated when given. */
export function validateForm(
  values: FormValues,
  fields: readonly FormField[],
  labels: Labels,
  today = new Date(),
) {
  const errors: FieldErrors = {}
  const zip = values.zipCode.trim()
  if (fields.includes('zipCode')) {
    if (zip === '') errors.zipCode = labels.zipCodeRequired
    else if (!ZIP_PATTERN.test(zip)) errors.zipCode = labels.zipCodeInvalid
    else if (isAllZeros(zip)) errors.zipCode = labels.zipCodeZeros
  }
  const dob = values.dateOfBirth
  if (fields.includes('dateOfBirth') && dob !== '') {
    const iso = localIsoDate(today)
    if (!isRealDate(dob) || dob >= iso || dob < '1900-01-01') errors.dateOfBirth = labels.dateOfBirthInvalid
    else {
      const age = ageOn(dob, iso)
      if (age < MIN_DRIVER_AGE || age > MAX_DRIVER_AGE) errors.dateOfBirth = labels.dateOfBirthAge
    }
  }
  const vehicles = values.numberOfVehicles
  if (fields.includes('numberOfVehicles') && vehicles !== '') {
    const n = Number(vehicles)
    if (!Number.isInteger(n) || n < 1 || n > 20) errors.numberOfVehicles = labels.numberOfVehiclesInvalid
  }
  return errors
}

/** The visitor's calendar date: a birthday is reached by their clock, not UTC's. */
function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** `autoInsuranceInformation.policyHolderInformation.isHomeOwner` -> `isHomeOwner`; unknown paths -> undefined. */
export function formFieldOf(path: string): FormField | undefined {
  const last = path.split('.').pop()?.toLowerCase()
  return FORM_FIELDS.find((field) => field.toLowerCase() === last)
}
