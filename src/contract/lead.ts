/**
 * @module The lead of the second-look partner interface (docs/partner-interface.md), with every availability
 * rule: as a partner receives it, and as a publisher or the widget's loan application submits it to the
 * BFF. Apart from the partner's reply (partner.ts), whose URL checks need the network-host predicate, so
 * the application's chunk, which validates with these very schemas, carries none of that.
 */
import * as z from 'zod/mini'
import {
  MAX_ANNUAL_INCOME_USD,
  MAX_LOAN_AMOUNT_USD,
  MAX_MONTHLY_NET_INCOME_USD,
  MIN_LOAN_AMOUNT_USD,
} from './applicant-bounds.ts'
import { ipAddress, nonEmptyText, realDate, text, ZIP_PATTERN } from './common.ts'
import { consentContextSchema } from './consent.ts'
import { placementSchema } from './placement.ts'
import { ZIP_CODE_SAYS } from './search-fields.ts'

/** docs/partner-interface.md: "50 U.S. states plus DC, PR and VI". */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'PR',
  'VI',
] as const
export type UsState = (typeof US_STATES)[number]

/** docs/partner-interface.md types these consent flags as strings that "carry true". */
const consentString = (field: string) =>
  z.enum(['true', 'false'], { error: `${field} must be the string "true" or "false"` })

/**
 * An object of the lead. `closed` refuses every key the table above does not define, one issue per key at
 * its full path (`legalInformation.consentsToTcpa`), even when other fields are wrong too: the intake never
 * forwards to a partner what the contract does not define (a `bankAccount`, a misspelled consent).
 */
function leadObject<S extends z.core.$ZodLooseShape>(path: string, shape: S, closed: boolean) {
  const object = z.looseObject(shape)
  if (!closed) return object
  const known = Object.keys(shape)
  return object.check(
    z.superRefine(
      (value: Record<string, unknown>, ctx) => {
        for (const key of Object.keys(value)) {
          if (Object.hasOwn(shape, key)) continue
          const field = path ? `${path}.${key}` : key
          const near = known.find((k) => k.toLowerCase() === key.toLowerCase())
          ctx.issues.push({
            code: 'custom',
            input: value[key],
            path: [key],
            continue: true,
            message: `${field} is not a field of the lead (docs/partner-interface.md): ${
              near ? `did you mean ${path ? `${path}.` : ''}${near}?` : 'remove it'
            }`,
          })
        }
      },
      // Runs even when a known field is wrong, so every unknown key is named in the same answer.
      { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
    ),
  )
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the lead schema is one zod object, field by field as docs/partner-interface.md lists the lead; split, the contract no longer reads as the document
function leadShapes(closed: boolean) {
  const personalInformation = leadObject(
    'personalInformation',
    {
      firstName: nonEmptyText('personalInformation.firstName', 100),
      lastName: nonEmptyText('personalInformation.lastName', 100),
      email: z.email({ error: 'personalInformation.email must be an email address' }),
      city: nonEmptyText('personalInformation.city', 100),
      state: z.enum(US_STATES, {
        error: 'personalInformation.state must be a two-letter code of the 50 states, DC, PR or VI',
      }),
      primaryPhone: z.string().check(
        z.regex(/^\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$/, {
          error: 'personalInformation.primaryPhone must be a 10-digit US phone number',
        }),
      ),
      address1: nonEmptyText('personalInformation.address1', 200),
      address2: z.optional(text('personalInformation.address2', 200)),
      zipcode: z
        .string()
        .check(z.regex(ZIP_PATTERN, { error: `personalInformation.zipcode must be ${ZIP_CODE_SAYS}` })),
      dateOfBirth: realDate('personalInformation.dateOfBirth'),
      ssn: z.string().check(
        z.regex(/^\d{3}-?\d{2}-?\d{4}$/, {
          error: 'personalInformation.ssn must be 9 digits (###-##-####)',
        }),
      ),
    },
    closed,
  )

  const loanInformation = leadObject(
    'loanInformation',
    {
      purpose: nonEmptyText('loanInformation.purpose', 100),
      loanAmount: z.optional(
        z.number({ error: 'loanInformation.loanAmount must be a number of USD' }).check(
          z.gte(MIN_LOAN_AMOUNT_USD, {
            error: `loanInformation.loanAmount must be at least ${MIN_LOAN_AMOUNT_USD} (USD)`,
          }),
          z.lte(MAX_LOAN_AMOUNT_USD, {
            error: `loanInformation.loanAmount must be at most ${MAX_LOAN_AMOUNT_USD} (USD): send the amount asked for`,
          }),
        ),
      ),
    },
    closed,
  )

  const mortgageInformation = leadObject(
    'mortgageInformation',
    { propertyStatus: z.optional(nonEmptyText('mortgageInformation.propertyStatus', 100)) },
    closed,
  )

  /** docs/partner-interface.md: "exactly one of this and `providedNumericCreditScore` is available". */
  const creditInformation = leadObject(
    'creditInformation',
    {
      providedCreditRating: z.optional(nonEmptyText('creditInformation.providedCreditRating', 100)),
      providedNumericCreditScore: z.optional(
        z
          .number({ error: 'creditInformation.providedNumericCreditScore must be a number' })
          .check(
            z.gte(300, { error: 'creditInformation.providedNumericCreditScore must be at least 300' }),
            z.lte(850, { error: 'creditInformation.providedNumericCreditScore must be at most 850' }),
          ),
      ),
    },
    closed,
  ).check(
    z.refine((c) => (c.providedCreditRating === undefined) !== (c.providedNumericCreditScore === undefined), {
      error:
        'creditInformation needs exactly one of providedCreditRating and providedNumericCreditScore: send one, not both',
      path: ['providedCreditRating'],
    }),
  )

  /** docs/partner-interface.md: "one of `annualIncome` and `monthlyNetIncome` is present". */
  const financialInformation = leadObject(
    'financialInformation',
    {
      employmentStatus: z.optional(nonEmptyText('financialInformation.employmentStatus', 100)),
      employmentPayFrequency: z.optional(nonEmptyText('financialInformation.employmentPayFrequency', 100)),
      annualIncome: z.optional(usd('financialInformation.annualIncome', MAX_ANNUAL_INCOME_USD)),
      monthlyNetIncome: z.optional(usd('financialInformation.monthlyNetIncome', MAX_MONTHLY_NET_INCOME_USD)),
    },
    closed,
  ).check(
    z.refine((f) => f.annualIncome !== undefined || f.monthlyNetIncome !== undefined, {
      error: 'financialInformation needs annualIncome or monthlyNetIncome: send at least one',
      path: ['annualIncome'],
    }),
  )

  /** docs/partner-interface.md: `tcpaLanguage` is "present when `consentstoTcpa` is true"; the key is spelled exactly so. */
  const legalInformation = leadObject(
    'legalInformation',
    {
      consentsToFcra: z.literal('true', {
        error: 'legalInformation.consentsToFcra must be "true": the lead must give FCRA consent',
      }),
      fcraLanguage: nonEmptyText('legalInformation.fcraLanguage', 10_000),
      consentstoTcpa: z.optional(consentString('legalInformation.consentstoTcpa')),
      tcpaLanguage: z.optional(text('legalInformation.tcpaLanguage', 10_000)),
    },
    closed,
  ).check(
    z.refine((l) => l.consentstoTcpa !== 'true' || (l.tcpaLanguage ?? '').length > 0, {
      error:
        'legalInformation.tcpaLanguage is required when consentstoTcpa is "true": send the TCPA text shown',
      path: ['tcpaLanguage'],
    }),
  )

  const sessionInformation = leadObject(
    'sessionInformation',
    { ipAddress, userAgent: nonEmptyText('sessionInformation.userAgent', 2048) },
    closed,
  )

  return {
    personalInformation,
    loanInformation,
    mortgageInformation: z.optional(mortgageInformation),
    creditInformation,
    // docs/partner-interface.md leaves the object's availability unspecified, but one of its incomes is always present,
    // so the object is required (docs/partner-interface.md#financialinformation-and-consent-strings).
    financialInformation,
    legalInformation,
    sessionInformation,
  }
}

const usd = (field: string, max: number) =>
  z
    .number({ error: `${field} must be a number of USD` })
    .check(
      z.gte(0, { error: `${field} must not be negative` }),
      z.lte(max, { error: `${field} must be at most ${max} (USD): send the applicant's income` }),
    )

const openShapes = leadShapes(false)
const closedShapes = leadShapes(true)

/** The session the BFF builds from the live request: exactly these two fields. */
export const leadSessionInformationSchema = closedShapes.sessionInformation

/**
 * The lead as a partner receives it. A partner reads it leniently (the partner interface,
 * docs/partner-interface.md, says the full lead specification goes beyond its table), so unknown keys pass here; the marketplace never sends any but `placement`, to a partner that opted in.
 */
export const leadSchema = leadObject(
  '',
  {
    ...openShapes,
    // Ours (docs/placements.md): sent only to a partner whose registry entry has `sendPlacement: true`.
    placement: z.optional(placementSchema),
  },
  false,
)
export type Lead = z.infer<typeof leadSchema>

/**
 * The lead as a publisher submits it to the BFF: every level closed (an unknown key is a 400 naming it),
 * and session information, always rebuilt server-side, taken as anything and dropped. `consent` is our
 * extension (src/contract/consent.ts): kept in the consent record, never sent to partners as is.
 */
export const leadInputSchema = leadObject(
  '',
  {
    ...closedShapes,
    sessionInformation: z.optional(z.unknown()),
    consent: z.optional(consentContextSchema),
    // Ours (docs/placements.md): recorded with the lead, sent to a partner only when its registry entry says so.
    placement: z.optional(placementSchema),
  },
  true,
)
export type LeadInput = z.infer<typeof leadInputSchema>
