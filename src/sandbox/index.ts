/**
 * @module Public surface of the sandbox: an in-process, strict implementation of the auto insurance offer
 * search API (docs/offer-search-api.md) with its own partners, scenarios by ZIP, fault injection and a pixel sink.
 */
export { createSandbox } from './create-sandbox.ts'
export type { Faults } from './faults.ts'
export { NO_FAULTS } from './faults.ts'
export type { Random } from './random.ts'
export { seededRandom } from './random.ts'
export type { Environment } from './rate-table-store.ts'
export type { ScenarioInfo } from './scenarios.ts'
export { DEFAULT_SCENARIO, SCENARIO_ZIP_PREFIX, SCENARIOS, zipOfScenario } from './scenarios.ts'
export type { ServedSandbox, ServeSandboxOptions } from './serve-sandbox.ts'
export { serveSandbox } from './serve-sandbox.ts'
export type { Sandbox, SandboxOptions } from './types.ts'
