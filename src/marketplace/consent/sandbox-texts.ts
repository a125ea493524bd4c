/**
 * @module The consent texts a sandbox-mode server shows and accepts when the operator has given none
 * (consent-texts.ts, `sandboxConsentTexts`); the partner kit's sample leads carry the same words, so a
 * synthetic lead passes the sandbox's check. Plain text: the playground shows it in the browser.
 */

/** The FCRA text of the sample leads and the sandbox's built-in FCRA text. */
export const SAMPLE_FCRA_TEXT =
  'By clicking Continue you authorize lenders to obtain your consumer credit report (synthetic test lead).'
/** The TCPA text of the sample leads that give TCPA consent, and the sandbox's built-in TCPA text. */
export const SAMPLE_TCPA_TEXT =
  'By clicking Continue you agree to be contacted at the number provided, including by autodialer (synthetic test lead).'
