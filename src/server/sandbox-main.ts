/**
 * @module `npm run sandbox`: serves the sandbox alone on `HOST`:`PORT` with the tokens from
 * `SANDBOX_TEST_TOKEN` / `SANDBOX_PRODUCTION_TOKEN` (environment, then `.env`), read through the config module.
 */

import { serveSandbox } from '../sandbox/serve-sandbox.ts'
import { startupBanner } from '../sandbox/startup-banner.ts'
import { ConfigError, loadConfig } from './config.ts'
import { applyEnvFile } from './env-file.ts'

try {
  applyEnvFile()
  const config = loadConfig()
  const served = await serveSandbox({
    port: config.port,
    hostname: config.host,
    tokens: { test: [config.sandboxTokens.test], production: [config.sandboxTokens.production] },
  })
  console.log(startupBanner({ url: served.url, tokens: config.sandboxTokens }))
  const stop = () => {
    served.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
