/**
 * @module What the Node server serves from disk: the built playground, the widget's browser bundles and the
 * demo page (each only where it exists and, for the demo pages, only when `SERVE_DEMO_PAGES`), the script-tag
 * bundle at /embed/ with its archive of past versions, and the demo's server renderer.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { MiddlewareHandler } from 'hono'
import type { Logger } from '../bff/logger.ts'
import type { BffMetrics } from '../bff/metrics.ts'
import {
  loadWidgetRenderer,
  type RenderWidgetHtml,
  WIDGET_RENDERER_FILE,
} from '../publisher/widget-renderer.ts'
import { cacheControlFor } from './cache-control.ts'
import type { Config } from './config.ts'
import { createEmbedArchive } from './embed-archive.ts'
import { registerEmbedArchiveMetric } from './embed-archive-metric.ts'
import { DEMO_PATH, withEmbedAssets } from './embed-assets.ts'
import { precompressedStatic } from './precompressed-static.ts'

/**
 * Static files, first match wins: the built playground (`dist/site`: `/`, `/assets/...`), the widget
 * browser bundles under `/dist/widget/` and `/dist/embed/` (not the compiled server), then `public/` (demo page). Only these folders are ever served.
 */
export function nodeStaticFiles(
  root: string,
  { demoPages = true }: { demoPages?: boolean } = {},
): MiddlewareHandler | undefined {
  const site = join(root, 'dist', 'site')
  const dist = join(root, 'dist')
  const pub = join(root, 'public')
  const handlers: Array<{ prefix: string; handler: MiddlewareHandler }> = []
  // Built files come with their brotli and gzip copies (scripts/precompress.ts), served by Accept-Encoding.
  const cacheControl = cacheControlFor
  // The playground and the demo page (SERVE_DEMO_PAGES): off, neither folder is served.
  if (demoPages && existsSync(site))
    handlers.push({ prefix: '/', handler: precompressedStatic({ root: site, cacheControl }) })
  if (existsSync(dist)) {
    // Browser bundles only: dist/ also holds the compiled server and the packed tarballs.
    const bundles = precompressedStatic({
      root: dist,
      cacheControl,
      rewriteRequestPath: (path) => path.replace(/^\/dist/, ''),
    })
    for (const prefix of ['/dist/widget/', '/dist/embed/']) handlers.push({ prefix, handler: bundles })
  }
  if (demoPages && existsSync(pub))
    handlers.push({ prefix: '/', handler: precompressedStatic({ root: pub, cacheControl }) })
  if (handlers.length === 0) return undefined
  return async function staticFiles(c, next) {
    const applicable = handlers.filter(({ prefix }) => c.req.path.startsWith(prefix))
    const run = async (index: number): Promise<void> => {
      const entry = applicable[index]
      if (!entry) return next()
      // serveStatic returns its Response rather than setting it; a chain has to hand it on.
      const response = await entry.handler(c, () => run(index + 1))
      if (response instanceof Response) c.res = response
    }
    await run(0)
  }
}

/** Which demo pages `root` can serve: the page needs public/demo.html and the script-tag build, the playground its build. */
export function demoPagesIn(root: string): { demo: boolean; playground: boolean } {
  return {
    demo:
      existsSync(join(root, 'public', 'demo.html')) &&
      existsSync(join(root, 'dist', 'embed', 'manifest.json')),
    playground: existsSync(join(root, 'dist', 'site', 'index.html')),
  }
}

/** With demo pages off, `/demo.html` is a 404 like any other unserved path (withEmbedAssets would build it). */
function withoutDemoPage(demoPages: boolean, handler: MiddlewareHandler): MiddlewareHandler {
  if (demoPages) return handler
  return async function noDemoPage(c, next) {
    if (c.req.path === DEMO_PATH) return next()
    return handler(c, next)
  }
}

/** The built server renderer; without it the demo's `?ssr=1` serves the client-rendered page, and says so. */
export async function demoRenderer(root: string, logger: Logger): Promise<RenderWidgetHtml | undefined> {
  const render = await loadWidgetRenderer(root)
  if (!render)
    logger.info(
      `no ${WIDGET_RENDERER_FILE} under ${root} (npm run build makes it): /demo.html?ssr=1 serves the client-rendered page`,
    )
  return render
}

/** The script-tag bundle at /embed/ and the demo page with its current snippet, then plain files. */
export function servedFiles(
  config: Config,
  staticRoot: string,
  { logger, metrics }: { logger: Logger; metrics: BffMetrics },
  renderDemoWidget: Parameters<typeof withEmbedAssets>[1]['renderDemoWidget'],
): MiddlewareHandler {
  const warn = (message: string) => logger.warn(message)
  // Every bundle served, kept for pages pinned to it with SRI after an upgrade (docs/upgrading.md).
  const archive = createEmbedArchive({
    dir: join(config.dataDir, 'embed'),
    retentionDays: config.embedRetentionDays,
    warn,
  })
  registerEmbedArchiveMetric(metrics.registry, archive)
  return withoutDemoPage(
    config.serveDemoPages,
    withEmbedAssets(nodeStaticFiles(staticRoot, { demoPages: config.serveDemoPages }), {
      root: staticRoot,
      archive,
      renderDemoWidget,
      warn,
    }),
  )
}
