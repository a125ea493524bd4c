/**
 * @module The application's values as its inputs hold them (strings; two booleans for the consent boxes),
 * read from what the publisher already knows (`LeadPrefill`) and turned into the lead
 * (docs/partner-interface.md) that `leadInputSchema` judges. No rule lives here: validate-application.ts.
 */
import type { ConsentContext, ConsentTexts } from '../../contract/consent.ts'
import { type LeadInput, US_STATES } from '../../contract/lead.ts'
import { type ChoiceField, LOAN_CHOICES } from './loan-choices.ts'

export type IncomeKind = '' | 'annual' | 'monthly'
export type CreditKind = '' | 'score' | 'rating'

/** One value per control; a field named after a lead field is that field (`zipcode`, `providedCreditRating`). */
export interface LoanValues {
  purpose: string
  loanAmount: string
  firstName: string
  lastName: string
  email: string
  primaryPhone: string
  dateOfBirth: string
  address1: string
  address2: string
  city: string
  state: string
  zipcode: string
  propertyStatus: string
  employmentStatus: string
  employmentPayFrequency: string
  /** Which of the two incomes the visitor gives: only that one reaches the lead. */
  incomeKind: IncomeKind
  annualIncome: string
  monthlyNetIncome: string
  /** Which of the two credit fields the visitor gives: only that one reaches the lead. */
  creditKind: CreditKind
  providedNumericCreditScore: string
  providedCreditRating: string
  ssn: string
  /** The consent boxes: never prefilled, only the visitor checks them. */
  fcra: boolean
  tcpa: boolean
}

export type LoanField = keyof LoanValues

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | undefined } : T

/** What the publisher already knows: any subset of the lead's fields, and the `consent` extension. */
export type LeadPrefill = DeepPartial<LeadInput> & { consent?: Partial<ConsentContext> | undefined }

/** A prefill value read defensively: the script tag's prefill is the page's JSON, not typed code. */
function str(value: unknown): string {
  if (typeof value === 'string') return value
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : ''
}

function group(prefill: unknown, key: string): Record<string, unknown> {
  const value =
    typeof prefill === 'object' && prefill !== null ? (prefill as Record<string, unknown>)[key] : {}
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}

/** A select keeps only a value it offers: a prefilled value it does not show would be sent unseen. */
function offered(field: ChoiceField, value: unknown): string {
  const text = str(value)
  return LOAN_CHOICES[field].some(([choice]) => choice === text) ? text : ''
}

/** `987654320` or `987-65-4320` as the field shows it, `###-##-####`; at most 9 digits. */
export function formatSsn(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 9)
  if (digits.length <= 3) return digits
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`
}

export function toLoanValues(prefill: LeadPrefill | undefined): LoanValues {
  const personal = group(prefill, 'personalInformation')
  const loan = group(prefill, 'loanInformation')
  const credit = group(prefill, 'creditInformation')
  const financial = group(prefill, 'financialInformation')
  const state = str(personal.state).toUpperCase()
  const dateOfBirth = str(personal.dateOfBirth)
  const score = str(credit.providedNumericCreditScore)
  const rating = offered('providedCreditRating', credit.providedCreditRating)
  const annual = str(financial.annualIncome)
  const monthly = str(financial.monthlyNetIncome)
  return {
    purpose: offered('purpose', loan.purpose),
    loanAmount: str(loan.loanAmount),
    firstName: str(personal.firstName),
    lastName: str(personal.lastName),
    email: str(personal.email),
    primaryPhone: str(personal.primaryPhone),
    // Shown as the visitor types it (MM/DD/YYYY); a prefill in any other form is dropped, not guessed at.
    dateOfBirth: /^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)
      ? `${dateOfBirth.slice(5, 7)}/${dateOfBirth.slice(8)}/${dateOfBirth.slice(0, 4)}`
      : '',
    address1: str(personal.address1),
    address2: str(personal.address2),
    city: str(personal.city),
    state: (US_STATES as readonly string[]).includes(state) ? state : '',
    zipcode: str(personal.zipcode),
    propertyStatus: offered('propertyStatus', group(prefill, 'mortgageInformation').propertyStatus),
    employmentStatus: offered('employmentStatus', financial.employmentStatus),
    employmentPayFrequency: offered('employmentPayFrequency', financial.employmentPayFrequency),
    // The form asks one income and one credit field; a prefill with both keeps the first of each.
    incomeKind: annual ? 'annual' : monthly ? 'monthly' : '',
    annualIncome: annual,
    monthlyNetIncome: monthly,
    creditKind: score ? 'score' : rating ? 'rating' : '',
    providedNumericCreditScore: score,
    providedCreditRating: rating,
    ssn: formatSsn(str(personal.ssn)),
    fcra: false,
    tcpa: false,
  }
}

/** Dollars as people type them (`15000`, `15,000`, `$15,000.50`): a number, NaN when unreadable, undefined when blank. */
export function parseUsd(input: string): number | undefined {
  const text = input.trim().replace(/^\$\s*/, '')
  if (text === '') return undefined
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(text)) return Number.NaN
  return Number(text.replace(/,/g, ''))
}

/** A credit score is a whole number: `700.5` is no score. */
function parseScore(input: string): number | undefined {
  const text = input.trim()
  if (text === '') return undefined
  return /^\d+$/.test(text) ? Number(text) : Number.NaN
}

/** Blank answers leave the field out; a blank required one is sent empty, so the schema names it. */
function optional<K extends string, V>(key: K, value: V | undefined | ''): { [P in K]?: V } {
  return (value === undefined || value === '' ? {} : { [key]: value }) as { [P in K]?: V }
}

/**
 * The lead the values make, as the BFF will judge it: `legalInformation` carries exactly the texts shown
 * (`texts`), `consentstoTcpa` only when the operator has a TCPA text. Unchecked FCRA is sent as "false",
 * which the schema refuses: that refusal is the box's error. Possibly invalid: `leadInputSchema` decides.
 */
export function toLead(values: LoanValues, texts: ConsentTexts | undefined): LeadInput {
  const v = values
  const trim = (text: string) => text.trim()
  const tcpa = texts?.tcpa
  return {
    personalInformation: {
      firstName: trim(v.firstName),
      lastName: trim(v.lastName),
      email: trim(v.email),
      city: trim(v.city),
      state: v.state as LeadInput['personalInformation']['state'],
      primaryPhone: trim(v.primaryPhone),
      address1: trim(v.address1),
      ...optional('address2', trim(v.address2)),
      zipcode: trim(v.zipcode),
      dateOfBirth: isoDateOf(v.dateOfBirth),
      ssn: v.ssn,
    },
    loanInformation: { purpose: v.purpose, ...optional('loanAmount', parseUsd(v.loanAmount)) },
    ...(v.propertyStatus && { mortgageInformation: { propertyStatus: v.propertyStatus } }),
    creditInformation:
      v.creditKind === 'score'
        ? optional('providedNumericCreditScore', parseScore(v.providedNumericCreditScore))
        : v.creditKind === 'rating'
          ? optional('providedCreditRating', v.providedCreditRating)
          : {},
    financialInformation: {
      ...optional('employmentStatus', v.employmentStatus),
      ...optional('employmentPayFrequency', v.employmentPayFrequency),
      ...(v.incomeKind === 'annual' && optional('annualIncome', parseUsd(v.annualIncome))),
      ...(v.incomeKind === 'monthly' && optional('monthlyNetIncome', parseUsd(v.monthlyNetIncome))),
    },
    legalInformation: {
      consentsToFcra: (v.fcra ? 'true' : 'false') as 'true',
      fcraLanguage: texts?.fcra.text ?? '',
      ...(tcpa && { consentstoTcpa: v.tcpa ? 'true' : 'false' }),
      ...(tcpa && v.tcpa && { tcpaLanguage: tcpa.text }),
    },
  }
}

/**
 * The date of birth as the lead carries it (YYYY-MM-DD) from what the visitor typed: MM/DD/YYYY as the
 * field's label asks (single-digit month and day, dashes, dots or no separators accepted), or an ISO date
 * (a browser's autofill). Anything else is returned as typed, for the lead's schema to refuse on its field.
 * A text field, not `<input type="date">`: a birth date is known, not picked (a calendar opened decades
 * away), and WebKit's date control takes no typed year from a keyboard.
 */
export function isoDateOf(typed: string): string {
  const text = typed.trim()
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text
  const parts = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(text)
  if (!parts) return text
  const [, month = '', day = '', year = ''] = parts
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`
}
