/**
 * @module `createRouteHandlers(create)`: a BFF as the `GET` / `POST` / `OPTIONS` / `HEAD` exports of a
 * framework's route module (a Next.js App Router `route.ts`, a SvelteKit `+server.ts`...). The app is created
 * on the first request, not when the module loads: `next build` loads route modules to collect their
 * metadata, with none of the runtime's environment, and a BFF built there would fail the build (or hold a
 * build-time configuration). A bad configuration then fails each request with the `ConfigError` naming the
 * variable, until it is fixed and the process restarted. The host framework compresses what a route
 * returns (Next.js does, whatever the answer's own `Content-Encoding`), so the BFF sees no `Accept-Encoding`
 * here and answers uncompressed: compressed twice, a client decodes once and reads gzip bytes as JSON.
 * A framework route has no socket, so without `TRUST_PROXY` every visitor is one address (the README's
 * `127.0.0.1`): the app warns once when it is made, since nothing else would show it.
 */
import type { BffApp } from '../bff/index.ts'

export type RouteHandler = (request: Request) => Promise<Response>

export interface RouteHandlers {
  GET: RouteHandler
  POST: RouteHandler
  OPTIONS: RouteHandler
  HEAD: RouteHandler
  /** Closes the app if one was created (upstream pool, Redis); for tests and graceful shutdown. */
  close(): Promise<void>
}

export function createRouteHandlers(create: () => BffApp): RouteHandlers {
  let app: BffApp | undefined
  const handle: RouteHandler = async (request) => {
    if (app === undefined) {
      app = create()
      warnWithoutTrustProxy(app)
    }
    const headers = new Headers(request.headers)
    headers.delete('accept-encoding')
    return app.fetch(new Request(request, { headers }))
  }
  return {
    GET: handle,
    POST: handle,
    OPTIONS: handle,
    HEAD: handle,
    async close() {
      await app?.close()
      app = undefined
    },
  }
}

/**
 * Silent otherwise: one shared per-IP bucket (one busy visitor throttles everybody) and one address sent
 * upstream for every visitor, with nothing failing.
 */
function warnWithoutTrustProxy(app: BffApp): void {
  if (app.services.config.trustProxy !== undefined) return
  app.services.logger.warn(
    { variable: 'TRUST_PROXY' },
    'createRouteHandlers: TRUST_PROXY is not set, so every visitor has the address getSocketAddress gives ' +
      '(a framework route has no socket): all visitors share one rate-limit bucket and the upstream sees one ' +
      'address for all of them. Set TRUST_PROXY to the proxies in front of this app, e.g. TRUST_PROXY=1 for ' +
      'one edge proxy (README, "Which trustProxy").',
  )
}
