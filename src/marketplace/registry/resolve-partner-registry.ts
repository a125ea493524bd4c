/**
 * @module Where the partners come from at start: `PARTNERS_FILE` when set; else, in sandbox mode, the
 * simulated partners (started on loopback); else nobody, said once in the log, and every lead completes
 * with no offer.
 */
import type { Logger } from 'pino'
import {
  SANDBOX_REPORTS_PARTNER,
  type StartSimulatedPartnersOptions,
  startSimulatedPartners,
} from '../simulated-partners/start-simulated-partners.ts'
import { loadPartnerRegistry, type PartnerRegistryEntry } from './partner-registry.ts'

export interface ResolvedRegistry {
  entries: PartnerRegistryEntry[]
  source: 'file' | 'simulated' | 'none'
  /** Stops the simulated partners, if they were started. */
  close(): Promise<void>
}

export async function resolvePartnerRegistry(options: {
  partnersFile: string | undefined
  sandboxMode: boolean
  /** `PARTNER_*` variables from the config module. */
  partnerSecrets: Readonly<Record<string, string | undefined>>
  simulated?: StartSimulatedPartnersOptions
  /** The own reports token of one simulated partner (`SANDBOX_REPORTS_PARTNER`), so its view can be tried. */
  simulatedPartnerReportsToken?: string | undefined
  logger?: Logger
}): Promise<ResolvedRegistry> {
  if (options.partnersFile) {
    const entries = loadPartnerRegistry(options.partnersFile, {
      sandboxMode: options.sandboxMode,
      secrets: options.partnerSecrets,
    })
    options.logger?.info({ partners: entries.map((e) => e.id) }, 'partner registry loaded')
    return { entries, source: 'file', close: async () => {} }
  }
  if (options.sandboxMode) {
    const simulated = await startSimulatedPartners(options.simulated)
    options.logger?.info({ url: simulated.url }, 'second look: simulated partners started (sandbox mode)')
    const token = options.simulatedPartnerReportsToken
    const entries = simulated.entries.map((entry) =>
      token !== undefined && entry.id === SANDBOX_REPORTS_PARTNER.id
        ? { ...entry, reportsToken: token }
        : entry,
    )
    return { entries, source: 'simulated', close: () => simulated.close() }
  }
  options.logger?.warn('second look: no PARTNERS_FILE, so no partner gets leads; set PARTNERS_FILE')
  return { entries: [], source: 'none', close: async () => {} }
}
