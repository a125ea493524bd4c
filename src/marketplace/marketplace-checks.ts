/**
 * @module What `createMarketplace` refuses to start with: partner windows past docs/partner-interface.md's
 * 12 s, a registry with a repeated id or an endpoint not https to a public host outside sandbox mode, and
 * partners to send leads to without the operator's consent texts.
 */
import type { OperatorConsentTexts } from './consent/consent-texts.ts'
import {
  identityProblems,
  MAX_PARTNER_TIMEOUT_MS,
  type PartnerRegistryEntry,
} from './registry/partner-registry.ts'

/** Each partner's window and first look's deadline: within docs/partner-interface.md's 12 s. */
export function checkedWindows(config: {
  deadlineMs?: number | undefined
  firstLookDeadlineMs?: number | undefined
}): { deadlineMs: number; firstLookDeadlineMs: number } {
  const deadlineMs = config.deadlineMs ?? MAX_PARTNER_TIMEOUT_MS
  if (!(deadlineMs > 0 && deadlineMs <= MAX_PARTNER_TIMEOUT_MS)) {
    throw new Error(
      `marketplace deadlineMs must be 1-${MAX_PARTNER_TIMEOUT_MS} (docs/partner-interface.md's 12 s window)`,
    )
  }
  const firstLookDeadlineMs = config.firstLookDeadlineMs ?? deadlineMs
  if (!(firstLookDeadlineMs > 0 && firstLookDeadlineMs <= MAX_PARTNER_TIMEOUT_MS)) {
    throw new Error(`marketplace firstLookDeadlineMs must be 1-${MAX_PARTNER_TIMEOUT_MS}`)
  }
  return { deadlineMs, firstLookDeadlineMs }
}

/** The registry by id: ids unique, endpoints public https outside sandbox mode (the lead carries an SSN). */
export function checkedRegistry(
  entries: readonly PartnerRegistryEntry[],
  sandboxMode: boolean,
): Map<string, PartnerRegistryEntry> {
  const registry = new Map<string, PartnerRegistryEntry>()
  const seen = new Set<string>()
  for (const entry of entries) {
    const [problem] = identityProblems(entry, seen, sandboxMode)
    if (problem?.field === 'id') throw new Error(`partner registry: id ${problem.reason}`)
    if (problem?.field === 'endpoint') {
      throw new Error(
        `partner registry: ${entry.id}.endpoint ${problem.reason}: give partner "${entry.name}" its public https ` +
          `endpoint${sandboxMode ? '' : ', or run in sandbox mode to try a partner on this machine'}`,
      )
    }
    registry.set(entry.id, entry)
  }
  return registry
}

/**
 * The consent texts a lead's must be. Without any, no lead can be taken: refused at once when partners would
 * get leads (a lead carries the visitor's consent to them); with no partner the marketplace starts and
 * intake answers 503 naming `CONSENT_TEXTS_FILE`.
 */
export function checkedConsentTexts(
  texts: OperatorConsentTexts | undefined,
  registry: ReadonlyMap<string, PartnerRegistryEntry>,
): OperatorConsentTexts | undefined {
  if (texts === undefined && [...registry.values()].some((p) => p.enabled)) {
    throw new Error(
      'createMarketplace: consentTexts is required outside sandbox mode when partners get leads: load the ' +
        'operator\'s texts with loadConsentTexts(CONSENT_TEXTS_FILE) (docs/second-look.md, "Consent and its proof")',
    )
  }
  return texts
}
