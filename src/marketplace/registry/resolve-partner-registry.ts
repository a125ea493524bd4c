/**
 * @module Where the partners come from at start: `PARTNERS_FILE` when set; else, in sandbox mode, the
 * simulated partners the caller starts (the partner kit's `startSimulatedPartners`, on loopback: partner
 * code, which the marketplace does not import); else nobody, said once in the log, and every lead
 * completes with no offer.
 */
import type { Logger } from 'pino'
import { loadPartnerRegistry, type PartnerRegistryEntry } from './partner-registry.ts'

export interface ResolvedRegistry {
  entries: PartnerRegistryEntry[]
  source: 'file' | 'simulated' | 'none'
  /** Stops the simulated partners, if they were started. */
  close(): Promise<void>
}

/** Partners running somewhere this process started them: their registry entries and how to stop them. */
export interface StartedPartners {
  entries: PartnerRegistryEntry[]
  /** Their base URL, for the log. */
  url: string
  close(): Promise<void>
}

export async function resolvePartnerRegistry(options: {
  partnersFile: string | undefined
  sandboxMode: boolean
  /** `PARTNER_*` variables from the config module. */
  partnerSecrets: Readonly<Record<string, string | undefined>>
  /** Sandbox mode without `PARTNERS_FILE`: starts the simulated partners (the Node server passes the kit's). */
  startSimulated?: () => Promise<StartedPartners>
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
  if (options.sandboxMode && options.startSimulated) {
    const simulated = await options.startSimulated()
    options.logger?.info({ url: simulated.url }, 'second look: simulated partners started (sandbox mode)')
    return { entries: simulated.entries, source: 'simulated', close: () => simulated.close() }
  }
  options.logger?.warn('second look: no PARTNERS_FILE, so no partner gets leads; set PARTNERS_FILE')
  return { entries: [], source: 'none', close: async () => {} }
}
