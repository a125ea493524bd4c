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
  }
  const dob = values.dateOfBirth
  if (fields.includes('dateOfBirth') && dob !== '') {
    const iso = today.toISOString().slice(0, 10)
    if (!isRealDate(dob) || dob >= iso || dob < '1900-01-01') errors.dateOfBirth = labels.dateOfBirthInvalid
  }
  const vehicles = values.numberOfVehicles
  if (fields.includes('numberOfVehicles') && vehicles !== '') {
    const n = Number(vehicles)
    if (!Number.isInteger(n) || n < 1 || n > 20) errors.numberOfVehicles = labels.numberOfVehiclesInvalid
  }
  return errors
}

/** `autoInsuranceInformation.policyHolderInformation.isHomeOwner` -> `isHomeOwner`; unknown paths -> undefined. */
export function formFieldOf(path: string): FormField | undefined {
  const last = path.split('.').pop()?.toLowerCase()
  return FORM_FIELDS.find((field) => field.toLowerCase() === last)
}
