#!/usr/bin/env node
/**
 * @module The `offer-widget` executable (partner kit: `partner`, `check-partner`). In the repository it runs
 * the TypeScript sources through tsx, so a change needs no rebuild; in the server package, or after
 * `npm ci --omit=dev` (no tsx), it runs the compiled JavaScript from `dist/server/`.
 */
import { existsSync } from 'node:fs'

const sources = new URL('../src/partner-kit/cli.ts', import.meta.url)
const compiled = new URL('../dist/server/partner-kit/cli.js', import.meta.url)

async function loadCli() {
  if (existsSync(sources)) {
    const tsx = await import('tsx/esm/api').catch(() => undefined)
    if (tsx) {
      tsx.register()
      return import(sources.href)
    }
  }
  if (!existsSync(compiled)) {
    throw new Error('offer-widget: no compiled CLI at dist/server/partner-kit/cli.js: run `npm run build`')
  }
  return import(compiled.href)
}

try {
  const { processIo, runCli } = await loadCli()
  process.exitCode = await runCli(process.argv.slice(2), processIo)
} catch (error) {
  process.stderr.write(
    `offer-widget: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
}
