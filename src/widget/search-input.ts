/**
 * @module The search data a page (or the visitor, through the form) provides, and the request body it
 * becomes. Session information is never sent: the BFF takes it from the live request.
 */
import type { OfferSearchInput } from '../contract/offer-search.ts'
import { AUTOMOBILE_INSURANCE } from '../contract/rate-table.ts'

export interface SearchData {
  /** An issuer id from `/api/issuers`, or `notinsured`. */
  currentIssuer?: string
  numberOfVehicles?: number
  isHomeOwner?: boolean
  isMilitary?: boolean
  /** 5-digit ZIP (or ZIP+4). */
  zipCode?: string
  /** `YYYY-MM-DD` */
  dateOfBirth?: string
  clientTags?: { subId?: string[] }
}

/** The fields the form can ask for, in the order it asks. */
export const FORM_FIELDS = [
  'zipCode',
  'dateOfBirth',
  'currentIssuer',
  'numberOfVehicles',
  'isHomeOwner',
  'isMilitary',
] as const
export type FormField = (typeof FORM_FIELDS)[number]

export function missingFields(data: SearchData): FormField[] {
  return FORM_FIELDS.filter((field) => data[field] === undefined || data[field] === '')
}

/** Omits every absent field: docs/offer-search-api.md, "Omitting an optional field means no information". */
export function toSearchInput(data: SearchData): OfferSearchInput {
  const policyHolder = compact({ isHomeOwner: data.isHomeOwner, isMilitary: data.isMilitary })
  const auto = compact({
    currentIssuer: data.currentIssuer,
    numberOfVehicles: data.numberOfVehicles,
    policyHolderInformation: policyHolder,
  })
  const personal = compact({ zipCode: data.zipCode, dateOfBirth: data.dateOfBirth })
  const subId = data.clientTags?.subId
  return {
    productTypes: [AUTOMOBILE_INSURANCE],
    ...(auto && { autoInsuranceInformation: auto }),
    ...(personal && { personalInformation: personal }),
    ...(subId && subId.length > 0 && { clientTags: { subId } }),
  }
}

function compact<T extends Record<string, unknown>>(object: T): Partial<T> | undefined {
  const entries = Object.entries(object).filter(([, value]) => value !== undefined)
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as Partial<T>)
}
