/**
 * @module Simulated partners: the sandbox's registry and the tests' real HTTP partners.
 */
export type {
  SimulatedBehavior,
  SimulatedLatencies,
  SimulatedPartnerSpec,
  SimulatedPartners,
  StartSimulatedPartnersOptions,
} from './start-simulated-partners.ts'
export {
  DEFAULT_SIMULATED_LATENCIES,
  defaultSimulatedPartners,
  startSimulatedPartners,
} from './start-simulated-partners.ts'
