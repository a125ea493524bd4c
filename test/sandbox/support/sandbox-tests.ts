/**
 * @module Shared fixtures for the sandbox tests: a sandbox on a hand-driven clock, valid headers and
 * bodies, and small request helpers over `app.request`.
 */
import { CURRENT_API_VERSION, type RateTable } from '../../../src/contract/offer-search.ts'
import { createSandbox, type Sandbox, type SandboxOptions, seededRandom } from '../../../src/sandbox/index.ts'

export const TOKENS = { test: ['test-token-aaaa'], production: ['prod-token-bbbb'] }
const START = Date.parse('2026-03-01T12:00:00.000Z')

export function headers(
  environment: 'test' | 'production' = 'test',
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    authorization: `Bearer ${TOKENS[environment][0]}`,
    'api-version': CURRENT_API_VERSION,
    'content-type': 'application/json',
    ...extra,
  }
}

export function validBody(zip?: string): Record<string, unknown> {
  return {
    productTypes: ['AutomobileInsurance'],
    sessionInformation: { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' },
    autoInsuranceInformation: { currentIssuer: 'notinsured', numberOfVehicles: 1 },
    ...(zip === undefined ? {} : { personalInformation: { zipCode: zip } }),
  }
}

export interface Harness {
  sandbox: Sandbox
  /** Moves the sandbox clock forward. */
  advance(ms: number): void
  at(): number
  create(body?: unknown, environment?: 'test' | 'production'): Promise<Response>
  createTable(zip?: string, environment?: 'test' | 'production'): Promise<RateTable>
  poll(uuid: string, environment?: 'test' | 'production'): Promise<Response>
}

export function harness(options: SandboxOptions = {}): Harness {
  let now = START
  const sandbox = createSandbox({
    tokens: TOKENS,
    random: seededRandom(42),
    timers: { now: () => now },
    ...options,
  })
  const create = async (body: unknown = validBody(), environment: 'test' | 'production' = 'test') =>
    sandbox.app.request(`/${environment}/offerSearches/`, {
      method: 'POST',
      headers: headers(environment),
      body: JSON.stringify(body),
    })
  return {
    sandbox,
    advance(ms) {
      now += ms
    },
    at: () => now,
    create,
    async createTable(zip, environment = 'test') {
      const response = await create(validBody(zip), environment)
      if (response.status !== 201) throw new Error(`create gave ${response.status}: ${await response.text()}`)
      return (await response.json()) as RateTable
    },
    poll: async (uuid, environment = 'test') =>
      sandbox.app.request(`/${environment}/offerSearches/${uuid}`, { headers: headers(environment) }),
  }
}

export async function errorFields(response: Response): Promise<string[]> {
  const body = (await response.json()) as { errors: { field: string; reason: string }[] }
  return body.errors.map((error) => error.field)
}
