/**
 * @module The loan application's stories (issue 40): `source="second-look"` with no complete lead shows the
 * widget's own application. The states a visitor reaches by acting (a refused field, a box left unchecked,
 * a slow answer) open through a play script (frame/play-step.ts), written with the application's own labels
 * so a reworded label moves the script with it.
 */

import { DEFAULT_LABELS, formatLabel } from '../widget/labels.ts'
import { DEFAULT_LOAN_LABELS as L } from '../widget/loan-application/loan-labels.ts'
import type { LeadPrefill } from '../widget/loan-application/loan-values.ts'
import type { PlayStep } from './frame/play-step.ts'
import { SAMPLE_CONSENT_TEXTS, SAMPLE_LEAD } from './scenarios/fixtures.ts'
import { REFUSED_ZIP } from './scenarios/second-look-scenarios.ts'
import type { Story } from './story.ts'

/**
 * What a publisher knows before the visitor applies: the sample lead without the SSN and the consent, which
 * only the visitor gives (a `LeadPrefill`: any part of a lead).
 */
const LOAN_PREFILL: LeadPrefill = (() => {
  const { legalInformation: _consent, personalInformation, ...rest } = SAMPLE_LEAD
  const { ssn: _ssn, ...personal } = personalInformation
  return { ...rest, personalInformation: personal }
})()

/** The sample applicant's SSN (the reserved 987-65-432x range), typed on the last step. */
const SSN = SAMPLE_LEAD.personalInformation.ssn

/** From a full prefill, through the four steps it already answers, to the last one. */
const TO_LAST_STEP: PlayStep[] = Array.from({ length: 4 }, () => ({ click: L.loanNext }))

/** The last step answered: the SSN typed, the FCRA box checked, the application sent. */
const APPLY: PlayStep[] = [
  { fill: L.loanSsn, value: SSN },
  { check: SAMPLE_CONSENT_TEXTS.fcra.text },
  { click: L.loanSubmit },
]

const PLAY_IS_MSW =
  'The play script runs in msw mode only: against the real BFF it would send the sample applicant to the sandbox, where a second lead of the same applicant is a duplicate.'

const application = (lead?: LeadPrefill) => ({ source: 'second-look' as const, ...(lead && { lead }) })

export const LOAN_STORIES: Story[] = [
  {
    id: 'loan-empty',
    group: 'Loan application',
    title: 'Loan application, empty',
    summary:
      'source="second-look" with no lead: the widget shows its own loan application, step 1 of 5, with nothing filled in.',
    scenario: 'secondLookLoans',
    bff: {
      note: "The same application, its consent texts from GET /api/second-look/consent (the sandbox's built-in ones); fill it in and the sandbox's lenders answer.",
    },
    args: application(),
    play: [
      { expect: L.loanHeading },
      { expect: formatLabel(L.loanStepOf, { step: 1, total: 5 }) },
      { expect: L.loanStepLoan },
      { expect: L.loanAmount, value: '' },
    ],
  },
  {
    id: 'loan-prefilled',
    group: 'Loan application',
    title: 'Loan application, pre-filled',
    summary:
      'Everything the publisher knows passed as `lead` (the sample lead without its SSN and consent): every step is answered but the last, where the visitor types the SSN and checks the boxes.',
    scenario: 'secondLookLoans',
    bff: { note: 'The same prefill; the last step asks for the SSN and the consent the sandbox accepts.' },
    args: application(LOAN_PREFILL),
    play: [
      { expect: L.loanStepLoan },
      { expect: L.loanAmount, value: String(SAMPLE_LEAD.loanInformation.loanAmount) },
      ...TO_LAST_STEP,
      { expect: L.loanStepConsent },
      { expect: L.loanSsn, value: '' },
    ],
  },
  {
    id: 'loan-errors',
    group: 'Loan application',
    title: 'Loan application, errors',
    summary: `The visitor changes the ZIP code to ${REFUSED_ZIP} and applies; the BFF refuses that field (400 naming personalInformation.zipcode) and the application comes back on "${L.loanStepAddress}" with the ZIP code marked and focused.`,
    scenario: 'loanFieldRefused',
    bff: {
      note: `The real BFF refuses only what its own checks find; the application's checks are the same schema, so a refusal of a field is rare there. ${PLAY_IS_MSW}`,
    },
    args: application(LOAN_PREFILL),
    play: [
      { click: L.loanNext },
      { click: L.loanNext },
      { fill: L.loanZipcode, value: REFUSED_ZIP },
      { click: L.loanNext },
      { click: L.loanNext },
      ...APPLY,
      { expect: L.loanZipcodeInvalid },
      { expect: L.loanStepAddress },
    ],
  },
  {
    id: 'loan-missing-consent',
    group: 'Loan application',
    title: 'Loan application, missing consent',
    summary:
      'The visitor types the SSN and presses submit without checking the FCRA box: the box says why it is needed, and nothing is sent.',
    scenario: 'secondLookLoans',
    bff: { note: `The same with the sandbox's texts: nothing reaches the BFF. ${PLAY_IS_MSW}` },
    args: application(LOAN_PREFILL),
    play: [
      ...TO_LAST_STEP,
      { fill: L.loanSsn, value: SSN },
      { click: L.loanSubmit },
      { expect: L.loanFcraRequired },
      { expect: L.loanStepConsent },
    ],
  },
  {
    id: 'loan-submitting',
    group: 'Loan application',
    title: 'Loan application, submitting',
    summary:
      'The visitor applies and the BFF takes 8 s to answer: the widget shows its "starting" state, then the lenders as in "Second look".',
    scenario: 'loanSlowCreate',
    bff: { note: `The real BFF answers at once, so the "starting" state only flashes. ${PLAY_IS_MSW}` },
    args: application(LOAN_PREFILL),
    play: [...TO_LAST_STEP, ...APPLY, { expect: DEFAULT_LABELS.starting }],
  },
  {
    id: 'loan-duplicate',
    group: 'Loan application',
    title: 'Loan application, duplicate applicant',
    summary:
      'The visitor applies, but applied within the duplicate window and those offers expired: the BFF answers 409 duplicate_applicant and the application comes back saying so.',
    scenario: 'loanDuplicateApplicant',
    bff: {
      note: `Apply twice as the same applicant (SSN and date of birth) and the sandbox answers the second with the first search; the 409 comes once those offers expired. ${PLAY_IS_MSW}`,
    },
    args: application(LOAN_PREFILL),
    play: [...TO_LAST_STEP, ...APPLY, { expect: L.loanDuplicate }],
  },
]
