/**
 * @module A publisher's page on its own origin and the real BFF (with its sandbox) on another, for the
 * visitor-facing e2e suites. The page is what `npm run snippet` prints, pasted as printed; the BFF can
 * hold the bundle's response back (a phone on a real network gets the script after the page painted).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { MiddlewareHandler } from 'hono'
import { publisherEmbed } from '../../../src/publisher/snippet.ts'
import { loadConfig } from '../../../src/server/config.ts'
import { withEmbedAssets } from '../../../src/server/embed-assets.ts'
import { type RunningServer, startServer } from '../../../src/server/start-server.ts'
import { nodeStaticFiles } from '../../../src/server/static-files.ts'
import { REPO_ROOT, requireBuild } from './server.ts'

export interface PublisherSetup {
  bff: RunningServer
  publisherUrl: string
  /** The block `npm run snippet` prints for this BFF, as printed. */
  pasteBlock: string
  /** The loader `<script>` alone. */
  loader: string
  /** Serves `body` at `path` on the publisher's origin, as HTML unless `type` says otherwise. */
  page(path: string, body: string, type?: string): void
  /** Delays every response for the bundle (stable or hashed URL) by `ms` from now on. */
  delayScript(ms: number): void
  close(): Promise<void>
}

/** An article page around `body`, as a publisher's would be: text above and below the widget. */
export function articlePage(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Cheap car insurance</title>
<link rel="icon" href="data:,"><style>body{margin:0 auto;max-width:760px;padding:16px;font:17px/1.6 Georgia,serif}</style>
</head><body><h1>Cheap car insurance in 2026</h1>
<p>Prices vary by hundreds of dollars a year for the same driver. Compare live quotes below.</p>
${body}
<h2>What affects your rate</h2><p>Your ZIP code, age and driving record all change your price.</p>
<p id="below">Text the widget must never push.</p></body></html>`
}

/** `env` adds BFF variables (e.g. `REPORTS_TOKEN` to read consent records). */
export async function startPublisherSetup(env: Record<string, string> = {}): Promise<PublisherSetup> {
  const manifest = requireBuild()
  const pages = new Map<string, { body: string; type: string }>()
  const server: Server = createServer((request, response) => {
    const page = pages.get((request.url ?? '/').split('?')[0] ?? '/')
    if (page === undefined) response.writeHead(404).end()
    else response.writeHead(200, { 'content-type': page.type }).end(page.body)
  })
  const publisherUrl = await new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  )
  let scriptDelayMs = 0
  const files = withEmbedAssets(nodeStaticFiles(REPO_ROOT), { root: REPO_ROOT })
  const staticFiles: MiddlewareHandler = async function delayedBundle(c, next) {
    if (scriptDelayMs > 0 && /^\/embed\/(?:v[\d.]+\/)?offer-widget\..*js$/.test(c.req.path)) {
      await new Promise((done) => setTimeout(done, scriptDelayMs))
    }
    return files(c, next)
  }
  const bff = await startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_POINTS: '100000',
      ALLOWED_ORIGINS: publisherUrl,
      ...env,
    }),
    { staticFiles, secondLook: { inMemoryLedger: true } },
  )
  const embed = publisherEmbed(manifest, bff.url)
  return {
    bff,
    publisherUrl,
    pasteBlock: embed.pasteBlock,
    loader: embed.snippet,
    page: (path, body, type = 'text/html; charset=utf-8') => pages.set(path, { body, type }),
    delayScript: (ms) => {
      scriptDelayMs = ms
    },
    async close() {
      await bff.close()
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    },
  }
}
