/**
 * @module The text `npm run sandbox` prints at start: where each environment is, which tokens work
 * (default tokens are printed; tokens set in the environment are not), and the scenario table.
 */

import { CURRENT_API_VERSION } from '../contract/offer-search.ts'
import { SCENARIOS } from './scenarios.ts'
import { SANDBOX_DEFAULT_TOKENS } from './types.ts'

export interface StartupBannerInput {
  url: string
  tokens: { test: string; production: string }
}

export function startupBanner({ url, tokens }: StartupBannerInput): string {
  const show = (env: 'test' | 'production', variable: string) =>
    tokens[env] === SANDBOX_DEFAULT_TOKENS[env]
      ? `${tokens[env]}  (default; set ${variable} to change)`
      : `(from ${variable})`
  const width = Math.max(...SCENARIOS.map((s) => s.name.length))
  return [
    `Sandbox offer search API listening on ${url}`,
    `  test base URL:        ${url}/test        token: ${show('test', 'SANDBOX_TEST_TOKEN')}`,
    `  production base URL:  ${url}/production  token: ${show('production', 'SANDBOX_PRODUCTION_TOKEN')}`,
    `  headers: Authorization: Bearer <token>, Api-Version: ${CURRENT_API_VERSION}, Content-Type: application/json`,
    `  pixel hits: ${url}/pixels/hits`,
    '  scenarios by personalInformation.zipCode (any other ZIP: offers-arriving):',
    ...SCENARIOS.map((s) => `    ${s.zip}  ${s.name.padEnd(width)}  ${s.description}`),
  ].join('\n')
}
