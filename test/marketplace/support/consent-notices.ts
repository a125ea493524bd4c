/**
 * @module The notices and links every `CONSENT_TEXTS_FILE` must carry beside its texts, as an operator writes
 * them, for tests that build a file of their own texts.
 */
export const NOTICES = {
  noDecisionNotice:
    'If you did not receive an offer from a lending partner, no credit decision has been made.',
  softPullNotice: "Checking your rate won't affect your credit score.",
  links: {
    terms: { label: 'Terms of Service', url: 'https://offers.example.com/terms' },
    privacy: { label: 'Privacy Policy', url: 'https://offers.example.com/privacy' },
    esign: { label: 'E-SIGN consent', url: 'https://offers.example.com/esign' },
  },
} as const
