/**
 * @module The consent texts and notices a sandbox-mode server shows and accepts when the operator has given
 * none (consent-texts.ts, `sandboxConsentTexts`); the partner kit's sample leads carry the same words, so a
 * synthetic lead passes the sandbox's check. Each text names the submit button by its label, built from it,
 * so the two cannot differ. Plain text: the playground shows it in the browser.
 */

/** The submit button's label: the loan application's own English label (loan-labels.ts, `loanSubmit`). */
export const SAMPLE_SUBMIT_LABEL = 'See my loan offers'

/** The FCRA text of the sample leads and the sandbox's built-in FCRA text: a soft inquiry, said so. */
export const SAMPLE_FCRA_TEXT = `By clicking "${SAMPLE_SUBMIT_LABEL}" you authorize lenders to make a soft inquiry into your credit report to see what you qualify for; a soft inquiry does not affect your credit score (synthetic test lead).`
/** The TCPA text of the sample leads that give TCPA consent, and the sandbox's built-in TCPA text. */
export const SAMPLE_TCPA_TEXT = `By clicking "${SAMPLE_SUBMIT_LABEL}" you agree to be contacted at the number provided, including by autodialer; consent is not a condition of any purchase (synthetic test lead).`

/** The no-decision notice a lending partner's program requires, shown with offers or without. */
export const SAMPLE_NO_DECISION_NOTICE =
  'If you did not receive an offer from a lending partner, no credit decision has been made. You may still apply with a lender directly.'
/** The soft-pull line shown on the first step and at submit. */
export const SAMPLE_SOFT_PULL_NOTICE = "Checking your rate won't affect your credit score."

/** The sandbox's links shown above the submit (placeholders on example.com). */
export const SAMPLE_LINKS = {
  terms: { label: 'Terms of Service', url: 'https://example.com/terms' },
  privacy: { label: 'Privacy Policy', url: 'https://example.com/privacy' },
  esign: { label: 'E-SIGN consent', url: 'https://example.com/esign' },
} as const
