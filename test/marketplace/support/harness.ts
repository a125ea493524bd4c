/**
 * @module A marketplace on real loopback partners and a real ledger, mounted the way the BFF mounts it
 * (`searchApiRoutes` under `/api`, plus page routes), with a log that tests can read line by line. Given a fake clock, the
 * marketplace's windows and the partners' latencies run on it, and nothing happens on time until the test
 * advances it.
 */

import { Hono } from 'hono'
import pino from 'pino'
import type { Registry } from 'prom-client'
import { afterAll, beforeAll } from 'vitest'
import { ACCESS_TOKEN_HEADER, WIDGET_HEADER } from '../../../src/contract/bff.ts'
import type { Lead } from '../../../src/contract/partner.ts'
import type { Ledger } from '../../../src/ledger/index.ts'
import {
  createMarketplace,
  type Marketplace,
  type MarketplaceConfig,
  searchApiRoutes,
} from '../../../src/marketplace/index.ts'
import {
  type SimulatedPartnerSpec,
  type SimulatedPartners,
  startSimulatedPartners,
} from '../../../src/partner-kit/index.ts'
import { SAMPLE_FCRA_TEXT } from '../../../src/partner-kit/sample-leads.ts'
import type { LedgerDriver } from '../../ledger/support/ledger-drivers.ts'
import { distinctDateOfBirth, issuedSsn } from '../../support/applicants.ts'
import type { FakeClock } from '../../support/fake-clock.ts'
import { captureLog } from './captured-log.ts'

export const SECRET = 'test-secret-0123456789abcdef0123456789'
export const CLIENT = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (TestBrowser) Widget/1' }
/** Access tokens a test can write itself: `token-for-<uuid>`. */
export const TEST_ACCESS_TOKENS = {
  issue: (uuid: string) => `token-for-${uuid}`,
  verify: (token: string, uuid: string) => token === `token-for-${uuid}`,
}
export const KNOWN_SSN = '987-65-4329'
export const KNOWN_EMAIL = 'pii.probe.lead@example.com'
/** The date of birth of `makeKnownLead()`; `makeLead()` gives each lead its own. */
export const KNOWN_DATE_OF_BIRTH = '1983-07-19'

/**
 * A lead with known identifying values but a date of birth of its own (a distinct applicant: the second look
 * sends an applicant to partners once per duplicate window), a fair credit score (the reference rules offer
 * two products), and the sandbox's FCRA text, the one the marketplace accepts by default.
 */
export function makeLead(overrides: Partial<Lead> = {}): Record<string, unknown> {
  return {
    personalInformation: {
      firstName: 'Quentina',
      lastName: 'Probeworth',
      email: KNOWN_EMAIL,
      city: 'Sacramento',
      state: 'CA',
      primaryPhone: '202-555-0147',
      address1: '4821 Unlikely Boulevard',
      zipcode: '95814',
      dateOfBirth: distinctDateOfBirth(),
      ssn: KNOWN_SSN,
    },
    loanInformation: { purpose: 'debt_consolidation', loanAmount: 12_000 },
    creditInformation: { providedNumericCreditScore: 620 },
    financialInformation: { annualIncome: 52_000 },
    legalInformation: { consentsToFcra: 'true', fcraLanguage: SAMPLE_FCRA_TEXT },
    // A forged session: the marketplace must replace it with the live request's.
    sessionInformation: { ipAddress: '198.51.100.66', userAgent: 'forged-agent' },
    ...overrides,
  }
}

/**
 * `makeLead()` with an SSN the SSA issues, a new one each call: what a marketplace in production mode takes
 * (it refuses the advertising range of `KNOWN_SSN`).
 */
export function makeIssuedLead(overrides: Partial<Lead> = {}): Record<string, unknown> {
  const lead = makeLead(overrides)
  const person = lead.personalInformation as Record<string, unknown>
  return { ...lead, personalInformation: { ...person, ssn: issuedSsn() } }
}

/**
 * `makeLead()` with every identifying value known, its date of birth too (`KNOWN_DATE_OF_BIRTH`): for the
 * tests that look for that date where it must not be. Always the same applicant, so a marketplace takes it
 * once per duplicate window.
 */
export function makeKnownLead(overrides: Partial<Lead> = {}): Record<string, unknown> {
  const lead = makeLead(overrides)
  const person = lead.personalInformation as Record<string, unknown>
  return { ...lead, personalInformation: { ...person, dateOfBirth: KNOWN_DATE_OF_BIRTH } }
}

export interface Harness {
  app: Hono
  marketplace: Marketplace
  partners: SimulatedPartners
  ledger: Ledger
  logLines: string[]
  /** Resolves once the marketplace has logged `count` partner replies in all (timeouts included). */
  whenReplies(count: number): Promise<void>
  submit(body: unknown, headers?: Record<string, string>): Promise<Response>
  poll(uuid: string, token?: string): Promise<Response>
  close(): Promise<void>
}

export interface HarnessOptions {
  ledger: Ledger
  partners: SimulatedPartnerSpec[]
  config?: Partial<MarketplaceConfig>
  now?: () => number
  clock?: FakeClock
  /** Where the marketplace's metrics go (a private registry when absent). */
  metricsRegistry?: Registry
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const timers = options.clock?.timers
  const partners = await startSimulatedPartners({
    partners: options.partners,
    recordLeads: true,
    ...(timers ? { timers } : {}),
  })
  const log = captureLog()
  const marketplace = createMarketplace({
    config: {
      winnerPolicy: 'phase2',
      sandboxMode: true,
      deadlineMs: 5_000,
      reportsToken: 'reports-secret-token',
      ...options.config,
    },
    ledger: options.ledger,
    registry: partners.entries,
    secret: SECRET,
    logger: log.logger,
    ...(options.now ? { now: options.now } : {}),
    ...(timers ? { timers } : {}),
    ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}),
  })
  const app = marketplaceApi(marketplace).route('/', marketplace.pageRoutes())
  return {
    app,
    marketplace,
    partners,
    ledger: options.ledger,
    logLines: log.lines,
    whenReplies: log.whenReplies,
    submit: async (body, headers = {}) =>
      app.request('http://bff.test/api/second-look', {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json', [WIDGET_HEADER]: '1', ...headers },
      }),
    poll: async (uuid, token) =>
      app.request(`http://bff.test/api/second-look/${uuid}`, {
        headers: token === undefined ? {} : { [ACCESS_TOKEN_HEADER]: token },
      }),
    async close() {
      await marketplace.close()
      await partners.close()
    },
  }
}

/** Submits, waits for the background auction, and returns the final rate table. */
export async function submitAndSettle(
  h: Harness,
  body: unknown = makeLead(),
  headers?: Record<string, string>,
) {
  const res = await h.submit(body, headers)
  if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${await res.text()}`)
  const created = (await res.json()) as { accessToken: string; rateTable: { uuid: string; leadUuid: string } }
  await h.marketplace.settled(created.rateTable.uuid)
  const final = await h.poll(created.rateTable.uuid, created.accessToken)
  return {
    created,
    final: (await final.json()) as Record<string, unknown> & { offers: Array<Record<string, unknown>> },
  }
}

/**
 * A known lead through a marketplace's own routes mounted on `app` (no harness), settled: its lead uuid and
 * the final poll's body as sent, for tests that read what reached the widget byte by byte.
 */
export async function settledLeadThrough(
  marketplace: Marketplace,
  app: Hono,
  body: unknown = makeKnownLead(),
) {
  const res = await app.request('http://bff.test/api/second-look', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', [WIDGET_HEADER]: '1' },
  })
  if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${await res.text()}`)
  const created = (await res.json()) as { accessToken: string; rateTable: { uuid: string; leadUuid: string } }
  await marketplace.settled(created.rateTable.uuid)
  const poll = await app.request(`http://bff.test/api/second-look/${created.rateTable.uuid}`, {
    headers: { [ACCESS_TOKEN_HEADER]: created.accessToken },
  })
  if (poll.status !== 200) throw new Error(`poll answered ${poll.status}: ${await poll.text()}`)
  return { leadUuid: created.rateTable.leadUuid, body: await poll.text() }
}

/**
 * A harness on the driver's ledger, started before the calling suite's tests and closed (its ledger too)
 * after them; `use` receives both.
 */
export function harnessAround(
  driver: LedgerDriver,
  options: Omit<HarnessOptions, 'ledger'>,
  use: (harness: Harness, ledger: Ledger) => void,
): void {
  let ledger: Ledger | undefined
  let harness: Harness | undefined
  beforeAll(async () => {
    ledger = await driver.open()
    harness = await startHarness({ ...options, ledger })
    use(harness, ledger)
  }, 30_000)
  afterAll(async () => {
    await harness?.close()
    await ledger?.close()
  })
}

/**
 * A marketplace on `ledger` with the tests' tokens, visitor and secret and a silent log, and its routes
 * under `/api` of a Hono app.
 */
export function testMarketplace(
  options: Pick<Parameters<typeof createMarketplace>[0], 'config' | 'ledger' | 'registry'>,
) {
  const marketplace = createMarketplace({
    ...options,
    secret: SECRET,
    logger: pino({ level: 'silent' }),
  })
  return { marketplace, app: marketplaceApi(marketplace) }
}

/**
 * The marketplace's API under `/api` as the BFF serves it (`searchApiRoutes`), with the tests' tokens and
 * visitor and none of the BFF's limits. Declared bots pass, as in sandbox mode, unless `refuseBots`.
 */
export function marketplaceApi(marketplace: Marketplace, options: { refuseBots?: boolean } = {}): Hono {
  return new Hono().route(
    '/api',
    searchApiRoutes(marketplace, {
      accessTokens: TEST_ACCESS_TOKENS,
      identity: () => CLIENT,
      refuseBots: options.refuseBots ?? false,
    }),
  )
}
