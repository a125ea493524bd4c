/**
 * @module The form's values (strings, as inputs hold them), their validation, and the mapping of the
 * BFF's field errors (`personalInformation.zipCode`) onto form fields.
 */
import { ZIP_PATTERN } from '../contract/common.ts'
import { dateOfBirthProblem, isNumberOfVehicles } from '../contract/search-fields.ts'
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

/**
 * `00000` is shaped like a ZIP but no place has it. Other ZIPs starting `000` do not exist either, but the
 * sandbox's scenario ZIPs (`00001`...) use that range on purpose, so only all zeros is refused here; the
 * upstream judges the rest.
 */
function isAllZeros(zip: string): boolean {
  return /^0{5}(-0{4})?$/.test(zip)
}

/**
 * Only the ZIP is required (it is what starts a search); the rest is validated when given, by the bounds
 * the BFF and the attribute readers share (contract/search-fields.ts).
 */
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
    const problem = dateOfBirthProblem(dob, today)
    if (problem) errors.dateOfBirth = problem === 'age' ? labels.dateOfBirthAge : labels.dateOfBirthInvalid
  }
  const vehicles = values.numberOfVehicles
  if (fields.includes('numberOfVehicles') && vehicles !== '' && !isNumberOfVehicles(Number(vehicles))) {
    errors.numberOfVehicles = labels.numberOfVehiclesInvalid
  }
  return errors
}

/** `autoInsuranceInformation.policyHolderInformation.isHomeOwner` -> `isHomeOwner`; unknown paths -> undefined. */
export function formFieldOf(path: string): FormField | undefined {
  const last = path.split('.').pop()?.toLowerCase()
  return FORM_FIELDS.find((field) => field.toLowerCase() === last)
}
