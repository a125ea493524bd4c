/**
 * @module Composes the second-look marketplace for a running BFF on Node: reads the operator's consent texts
 * (`CONSENT_TEXTS_FILE`), opens the ledger (PGlite, or PostgreSQL with `DATABASE_URL`; PGlite on disk opens in
 * the background), resolves the partner registry (a file, or the simulated partners in sandbox mode), and
 * builds the marketplace on them, and returns what `createBff(config, { secondLook })` serves plus one `close()`
 * for shutdown.
 */
import type { Hono } from 'hono'
import type { Logger } from 'pino'
import { Registry } from 'prom-client'
import type { SecondLookMount } from '../bff/services.ts'
import { instrumentLedger, type Ledger, openLedger } from '../ledger/index.ts'
import { loadConsentTexts } from '../marketplace/consent/consent-texts.ts'
import { createMarketplace, type Marketplace } from '../marketplace/create-marketplace.ts'
import {
  type ResolvedRegistry,
  resolvePartnerRegistry,
} from '../marketplace/registry/resolve-partner-registry.ts'
import { startSimulatedPartners } from '../partner-kit/simulated-partners.ts'
import type { Config } from './config.ts'

/**
 * The second look on Node. As a `SecondLookMount`, `createBff(config, { secondLook })` serves its marketplace's
 * search at `/api/second-look` with the BFF's tokens, identity and limits, mounts its other routes under
 * `/api`, and reports its ledger in `/readyz`.
 */
export interface SecondLook extends SecondLookMount {
  /** The marketplace itself (`createMarketplace`'s): its search and routes, and `settled`, `drain`, `close`. */
  readonly marketplace: Marketplace
  /** `/reports` as a sub-app to mount at the root (`app.route('/', secondLook.pageRoutes())`), in any order. */
  pageRoutes(): Hono
  readonly registry: ResolvedRegistry
  readonly ledger: Ledger
  /** Leads running in this process. */
  readonly inFlight: number
  /**
   * Shutdown, first step: new leads are refused, leads in flight finish their windows (at most
   * `MARKETPLACE_DRAIN_TIMEOUT_MS`) and are written. Call before `close()`.
   */
  drain(): Promise<void>
  close(): Promise<void>
}

export interface StartSecondLookOptions {
  /** PGlite in memory instead of `DATA_DIR/ledger` (tests); ignored with `DATABASE_URL`. */
  inMemoryLedger?: boolean
  logger: Logger
  /** The registry `/metrics` serves: ledger, partner, lead and delivery metrics go on it. A private one when absent. */
  metricsRegistry?: Registry
}

const DAY_MS = 24 * 60 * 60 * 1000

// long-function: composition: opens the ledger and registry and builds the marketplace in start order; each step is one call
export async function startSecondLook(config: Config, options: StartSecondLookOptions): Promise<SecondLook> {
  // First, before anything is opened: a bad file stops the start naming CONSENT_TEXTS_FILE and its fields.
  const consentTexts = config.consentTextsFile ? loadConsentTexts(config.consentTextsFile) : undefined
  const metricsRegistry = options.metricsRegistry ?? new Registry()
  const openedLedger = await openLedger({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    inMemory: options.inMemoryLedger,
    timeoutMs: config.marketplace.ledgerTimeoutMs,
    // PGlite on disk opens beside the listening server: `/readyz` says not ready (ledger "opening") until
    // it is open, and a lead meanwhile is a 503 with Retry-After, never a wait for a database to be made.
    background: true,
    // PGlite's statements run in a thread of their own: a lead's offers never hold a visitor's request.
    thread: 'worker',
    onOpenError: (error, retryInMs) =>
      options.logger.error(
        { err: error, retryInMs },
        `the ledger under DATA_DIR (${config.dataDir}) could not be opened; retrying (check the directory is writable and has space)`,
      ),
  })
  const ledger = instrumentLedger(openedLedger, metricsRegistry)
  let registry: ResolvedRegistry | undefined
  let marketplace: Marketplace
  try {
    registry = await resolvePartnerRegistry({
      partnersFile: config.partnersFile,
      sandboxMode: config.sandboxMode,
      partnerSecrets: config.partnerSecrets,
      startSimulated: () => startSimulatedPartners({ reportsToken: config.sandboxPartnerReportsToken }),
      logger: options.logger,
    })
    marketplace = createMarketplace({
      config: {
        winnerPolicy: config.winnerPolicy,
        reportsToken: config.reportsToken,
        sandboxMode: config.sandboxMode,
        publicBaseUrl: config.publicBaseUrl,
        firstLookDeadlineMs: config.marketplace.firstLookDeadlineMs,
        drainTimeoutMs: config.marketplace.drainTimeoutMs,
        leaseMs: config.marketplace.leaseMs,
        // Sandbox mode without a file: the built-in texts (createMarketplace's default).
        consentTexts,
        duplicateWindowMs: config.marketplace.duplicateWindowDays * DAY_MS,
        maxBirthDatesPerSsn: config.marketplace.maxBirthDatesPerSsn,
        consentRetentionMs: config.marketplace.consentRetentionDays * DAY_MS,
      },
      ledger,
      registry: registry.entries,
      secret: config.sessionSecret,
      leadIdKey: config.marketplace.leadIdHashSecret,
      logger: options.logger,
      metricsRegistry,
    })
  } catch (error) {
    await registry?.close()
    await ledger.close()
    throw error
  }
  const partners = registry
  return {
    marketplace,
    leadCeilingPerMinute: config.marketplace.leadCeilingPerMinute,
    registry: partners,
    ledger,
    get inFlight() {
      return marketplace.inFlight
    },
    pageRoutes: () => marketplace.pageRoutes(),
    checkLedger: () => ledger.ping(),
    drain: () => marketplace.drain(),
    async close() {
      await marketplace.close()
      await partners.close()
      await ledger.close()
    },
  }
}
