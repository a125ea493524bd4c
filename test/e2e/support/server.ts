/**
 * @module The real BFF with its embedded sandbox on a loopback port, for the browser tests. Static files
 * are what `npm start` serves plus the embed assets and any test pages (with their own headers, e.g. a
 * strict CSP), all on one origin so `default-src 'self'` covers the bundle, the API, logos and pixels.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { MiddlewareHandler } from 'hono'
import { readEmbedManifest } from '../../../src/publisher/snippet.ts'
import { loadConfig } from '../../../src/server/config.ts'
import { withEmbedAssets } from '../../../src/server/embed-assets.ts'
import { type RunningServer, startServer } from '../../../src/server/start-server.ts'
import { nodeStaticFiles } from '../../../src/server/static-files.ts'

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export interface TestPage {
  html: string
  type?: string
  headers?: Record<string, string>
}

export function requireBuild() {
  const manifest = readEmbedManifest(REPO_ROOT)
  if (!manifest || !existsSync(`${REPO_ROOT}/dist/site/index.html`)) {
    throw new Error('e2e: dist/embed or dist/site is missing; run npm run build first')
  }
  return manifest
}

/**
 * `pages` is read on every request, so a test may add a page after the start. `env` adds variables (e.g.
 * `ALLOWED_ORIGINS` for a page on another origin). Sandbox mode counts searches against its own allowance
 * (`SANDBOX_RATE_LIMIT_POINTS`, 600 a minute), which the suites stay well under.
 */
export async function startTestServer(
  pages: Record<string, TestPage> = {},
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_POINTS: '100000', ...env })
  const files = withEmbedAssets(nodeStaticFiles(REPO_ROOT), { root: REPO_ROOT })
  const staticFiles: MiddlewareHandler = async function testStaticFiles(c, next) {
    const page = pages[c.req.path]
    if (!page) return files(c, next)
    for (const [name, value] of Object.entries(page.headers ?? {})) c.header(name, value)
    c.header('Content-Type', page.type ?? 'text/html; charset=utf-8')
    return c.body(page.html)
  }
  return startServer(config, { staticFiles, secondLook: { inMemoryLedger: true } })
}
