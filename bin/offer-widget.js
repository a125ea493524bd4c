#!/usr/bin/env node
/**
 * @module The `offer-widget` executable. The package ships TypeScript sources, so this registers tsx's
 * ESM loader and hands the arguments to the CLI's dispatcher.
 */
import { register } from 'tsx/esm/api'

register()
const { processIo, runCli } = await import('../src/partner-kit/cli.ts')

try {
  process.exitCode = await runCli(process.argv.slice(2), processIo)
} catch (error) {
  process.stderr.write(
    `offer-widget: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
}
