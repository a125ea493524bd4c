/**
 * @module `npm start` and `npm run start:prod`: the BFF on Node. Supplies what `createBff` leaves to the
 * runtime (the socket address, static files and the demo pages, the embedded sandbox when no ENGINE_TOKEN is
 * set, the second look with its ledger) and shuts down gracefully on SIGTERM: while second-look leads are in
 * flight the listener stays open for their polls (`shutdown-drain.ts`), then it closes, in-flight requests
 * finish, idle keep-alive sockets are dropped.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import { collectDefaultMetrics } from 'prom-client'
import { type BffApp, type BffOptions, createBff } from '../bff/create-bff.ts'
import { createLogger, type Logger } from '../bff/logger.ts'
import { createMetrics } from '../bff/metrics.ts'
import type { SearchEventSink } from '../bff/search-log.ts'
import { compileTrust } from '../http/client-address.ts'
import { packageRoot } from '../http/package-root.ts'
import { systemTimers } from '../http/timers.ts'
import { createSandbox } from '../sandbox/index.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { capConnectionsPerIp } from './connection-cap.ts'
import { applyEnvFile, type EnvFileResult } from './env-file.ts'
import { serverRenderedDemo } from './server-rendered-demo.ts'
import { createShutdownDrain } from './shutdown-drain.ts'
import { announceStart } from './start-announcement.ts'
import { notServingResponse, startFailureLine } from './start-failure.ts'
import { type SecondLook, startSecondLook } from './start-second-look.ts'
import { demoPagesIn, demoRenderer, servedFiles } from './static-files.ts'

// The repository (from src/ or dist/server/) or the installed server package.
const REPO_ROOT = packageRoot(import.meta.url)

export interface StartServerOptions extends Omit<BffOptions, 'secondLook'> {
  /** Directory holding `dist/` and `public/`; default the repository root. */
  staticRoot?: string
  /** In-flight requests get this long to finish on close before their sockets are cut. */
  graceMs?: number
  /**
   * The second-look marketplace (ledger, partners, `/api/second-look`, clicks, reports): on by default;
   * `false` leaves it out, `{ inMemoryLedger: true }` keeps its ledger off disk (tests).
   */
  secondLook?: false | { inMemoryLedger?: boolean }
}

export interface RunningServer {
  /** `http://host:port` the server listens on. */
  url: string
  port: number
  app: BffApp
  server: Server
  logger: Logger
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then releases upstream and Redis. */
  close(): Promise<void>
}

/**
 * docs/placements.md: the insurance searches' records share the second look's ledger (and its write batch);
 * with the second look off there is no ledger and they are not recorded.
 */
function searchEventsOf(secondLook: SecondLook | undefined): SearchEventSink | undefined {
  if (!secondLook) return undefined
  const { ledger } = secondLook
  return (events) => ledger.recordSearchEvents(events)
}

// long-function: composition: the process's start in order (config, telemetry, BFF, second look, listen, shutdown); each step is one call
export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ level: config.logLevel })
  let app: BffApp | undefined
  let closing = false
  const shutdownDrain = createShutdownDrain()

  const server = await listen(config, (request, env) => {
    // New requests on kept-alive sockets during shutdown are refused and their socket closed.
    if (closing || !app) return notServingResponse(closing)
    return shutdownDrain.intercept(request) ?? app.fetch(request, env)
  })
  capConnections(server, config, logger)
  const { url, port, selfBase } = addressOf(server)

  // Links in answers (clicks, sandbox pixels and logos) are built on this, never on the request's Host
  // or X-Forwarded-* headers, which the visitor chooses. Outside sandbox mode config requires it.
  const publicBase = config.publicBaseUrl ?? selfBase
  const { sandbox, upstreamBaseUrl } = embeddedSandbox(config, options, { publicBase, selfBase, logger })

  // One registry for everything `/metrics` serves: the BFF's, the second look's and the ledger's.
  const metrics = options.metrics ?? createMetrics()
  const ownTracing = options.tracing ? undefined : await startTracingIfConfigured(config)
  const tracing = options.tracing ?? ownTracing
  let secondLook: SecondLook | undefined
  try {
    if (options.secondLook !== false) {
      secondLook = await startSecondLook(
        { ...config, publicBaseUrl: publicBase },
        {
          logger,
          inMemoryLedger: options.secondLook?.inMemoryLedger,
          metricsRegistry: metrics.registry,
        },
      )
    }
    const staticRoot = options.staticRoot ?? REPO_ROOT
    const render = await demoRenderer(staticRoot, logger)
    let renderDemoWidget: ReturnType<typeof serverRenderedDemo> | undefined
    app = createBff(config, {
      logger,
      // The script-tag bundle at /embed/ and the demo page with its current snippet, then plain files.
      staticFiles: servedFiles(config, staticRoot, { logger, metrics }, (c, params) =>
        renderDemoWidget ? renderDemoWidget(c, params) : Promise.resolve(undefined),
      ),
      ...options,
      metrics,
      tracing,
      sandbox: options.sandbox ?? sandbox,
      upstreamBaseUrl,
      secondLook,
      searchEvents: options.searchEvents ?? searchEventsOf(secondLook),
    })
    if (secondLook) app.route('/', secondLook.pageRoutes())
    if (render) renderDemoWidget = serverRenderedDemo(app.services, render)
  } catch (error) {
    server.close()
    await secondLook?.close()
    await ownTracing?.shutdown()
    throw error
  }
  collectDefaultMetrics({ register: app.services.metrics.registry })
  const bff = app

  let closed: Promise<void> | undefined
  return {
    url,
    port,
    app: bff,
    server,
    logger,
    close() {
      closed ??= (async () => {
        // Leads in flight keep their partner calls and their pollers (MARKETPLACE_DRAIN_TIMEOUT_MS); /readyz
        // says not ready and intake refuses new leads meanwhile.
        await shutdownDrain.run(secondLook)
        closing = true
        await closeSockets(server, options.graceMs ?? 10_000)
        await bff.close()
        await secondLook?.close()
        // The last spans (shutdown's own requests included) are exported before the process ends.
        await ownTracing?.shutdown()
        logger.flush()
      })()
      return closed
    },
  }
}

/**
 * Sandbox mode (src/server/config-mode.ts): the embedded sandbox at `/sandbox`, reached over real HTTP through
 * undici at this server's own address, so the sandbox path is the production path.
 */
function embeddedSandbox(
  config: Config,
  options: StartServerOptions,
  { publicBase, selfBase, logger }: { publicBase: string; selfBase: string; logger: Logger },
): { sandbox: BffOptions['sandbox']; upstreamBaseUrl: string | undefined } {
  if (!config.sandboxMode || options.upstream) {
    return { sandbox: options.sandbox, upstreamBaseUrl: options.upstreamBaseUrl }
  }
  const sandbox = createSandbox({
    tokens: { test: [config.sandboxTokens.test], production: [config.sandboxTokens.production] },
    publicBaseUrl: `${publicBase}/sandbox`,
    basePath: '/sandbox',
  })
  const upstreamBaseUrl = options.upstreamBaseUrl ?? `${selfBase}/sandbox/${config.engine.env}`
  logger.info(
    { upstream: upstreamBaseUrl },
    `No ENGINE_TOKEN: using the embedded sandbox (${config.engine.env}) as the upstream; set ENGINE_TOKEN for the real API`,
  )
  return { sandbox: options.sandbox ?? sandbox, upstreamBaseUrl }
}

/** Where the server listens (`url`), and the base it reaches itself at: loopback for a wildcard bind. */
function addressOf(server: Server): { url: string; port: number; selfBase: string } {
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const selfHost = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : host
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    selfBase: `http://${selfHost}:${address.port}`,
  }
}

/** Tracing, loaded only when an OTLP endpoint is configured: otherwise no OpenTelemetry SDK code is imported. */
async function startTracingIfConfigured(config: Config) {
  if (!config.tracing) return undefined
  return (await import('./start-tracing.ts')).startTracing(config.tracing)
}

type ServeFetch = Parameters<typeof serve>[0]['fetch']

/** The Node server on `PORT`/`HOST`, with the slow-client bounds of `config.http`. */
function listen(config: Config, fetch: ServeFetch): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch,
        port: config.port,
        hostname: config.host,
        serverOptions: {
          // Slow clients: headers, then the whole request, must arrive in time or the socket gets 408.
          headersTimeout: config.http.headersMs,
          requestTimeout: config.http.requestMs,
          // Node checks those timeouts on this period (default 30 s, which would double the bound).
          connectionsCheckingInterval: Math.min(1000, config.http.headersMs),
        },
      },
      () => resolve(s as Server),
    ) as Server
    s.keepAliveTimeout = config.http.keepAliveMs
    s.once('error', reject)
  })
}

/** `MAX_CONNECTIONS_PER_IP` per TCP peer, trusted proxies exempt; refusals logged once a minute. */
function capConnections(server: Server, config: Config, logger: Logger): void {
  const trust = compileTrust(config.trustProxy)
  let lastRefusalLog = Number.NEGATIVE_INFINITY
  capConnectionsPerIp(server, {
    maxPerIp: config.http.maxConnectionsPerIp,
    exempt: trust && ((address) => trust(address, 0)),
    onRefused: (address) => {
      if (systemTimers.now() - lastRefusalLog < 60_000) return
      lastRefusalLog = systemTimers.now()
      logger.warn(
        { address, max: config.http.maxConnectionsPerIp },
        'connections refused: one address holds MAX_CONNECTIONS_PER_IP sockets (logged once a minute)',
      )
    },
  })
}

/** Stops listening; in-flight requests get `graceMs`, idle keep-alive sockets close as their last response ends. */
async function closeSockets(server: Server, graceMs: number): Promise<void> {
  const drained = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  const sweep = setInterval(() => server.closeIdleConnections(), 50)
  const force = systemTimers.setTimeout(() => server.closeAllConnections(), graceMs)
  sweep.unref()
  await drained
  clearInterval(sweep)
  systemTimers.clearTimeout(force)
}

async function main() {
  let config: Config
  let envFile: EnvFileResult | undefined
  try {
    envFile = applyEnvFile()
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      // A value cut at an unquoted # is often why a secret is too short: say so beside the error.
      for (const warning of envFile?.warnings ?? []) console.error(`${envFile?.file}: ${warning}`)
      process.exit(1)
    }
    throw error
  }
  const running = await startServer(config).catch((error: unknown) => {
    console.error(startFailureLine(error, config))
    process.exit(1)
  })
  // A person at a terminal gets the addresses as plain lines first; a log pipeline gets JSON only.
  announceStart(
    running.logger,
    { url: running.url, config, envFile, pages: demoPagesIn(REPO_ROOT) },
    process.stdout.isTTY ? process.stdout : undefined,
  )
  const stop = (signal: string) => {
    running.logger.info({ signal }, 'shutting down: finishing in-flight requests')
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        running.logger.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
