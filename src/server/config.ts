/**
 * @module The only reader of `process.env`: validates every variable with zod and fails at start with a
 * message naming the variable and the fix.
 */
import { randomBytes } from 'node:crypto'
import type { BffConfig } from '../bff/bff-config.ts'
import { trustProxyProblem } from '../http/client-address.ts'
import { MIN_SECRET_LENGTH, SECRET_FIX } from '../http/server-secret.ts'
import { type Env, envSchema } from './config-env.ts'
import { chooseMode, type ModeChoice, modeProblems } from './config-mode.ts'
import { secretProblems } from './config-secrets.ts'
import { gotValue, isOrigin, partnerSecrets, shown } from './config-values.ts'

/**
 * The process's configuration: what the BFF reads (`BffConfig`, declared by the BFF, src/bff/bff-config.ts)
 * and what only this Node server reads (its socket, the ledger, the marketplace, the partners, tracing).
 */
export interface Config extends BffConfig {
  nodeEnv: Env['NODE_ENV']
  port: number
  host: string
  /** The mode's reason, for the start log: `ENGINE_TOKEN is set`, `BFF_MODE=production`, ... */
  modeReason: string
  databaseUrl: string | undefined
  dataDir: string
  /** Days a superseded script-tag bundle is kept under `DATA_DIR/embed` for pinned pages. */
  embedRetentionDays: number
  sandboxTokens: { test: string; production: string }
  partnersFile: string | undefined
  /**
   * `CONSENT_TEXTS_FILE`: the operator's FCRA and TCPA texts (JSON or YAML), read and checked at start by the
   * second look; required outside sandbox mode with `PARTNERS_FILE`. Sandbox mode has built-in texts.
   */
  consentTextsFile: string | undefined
  reportsToken: string | undefined
  /** True when `reportsToken` was made up for this sandbox-mode process (printed at start). */
  reportsTokenGenerated: boolean
  /**
   * Sandbox mode with the simulated partners: the own reports token of one of them (`sim-fast`), made up
   * for the process and printed at start, so a partner's own view can be tried. Undefined otherwise.
   */
  sandboxPartnerReportsToken: string | undefined
  winnerPolicy: Env['WINNER_POLICY']
  /** Where browsers reach this server; sandbox asset URLs (logos, pixels) are built on it. */
  publicBaseUrl: string | undefined
  /**
   * `SERVE_DEMO_PAGES`: the playground (`/`) and the demo page (`/demo.html`) are served. Default: only in
   * sandbox mode, since with a real token anyone could run billed searches from them.
   */
  serveDemoPages: boolean
  /**
   * Every `PARTNER_*` variable, for the partner registry's `auth.valueEnv` references (secrets: never log).
   */
  partnerSecrets: Readonly<Record<string, string>>
  /**
   * Socket bounds of the Node server: `headersMs` and `requestMs` cut a client whose headers or body do not
   * arrive in time (408), `keepAliveMs` closes idle kept-alive sockets, `maxConnectionsPerIp` caps the
   * open sockets of one TCP peer (trusted proxies exempt).
   */
  http: { headersMs: number; requestMs: number; keepAliveMs: number; maxConnectionsPerIp: number }
  /** Every ledger call's bound; first look's deadline; how long leads in flight may finish on shutdown. */
  marketplace: {
    ledgerTimeoutMs: number
    firstLookDeadlineMs: number
    drainTimeoutMs: number
    /** `LEAD_LEASE_MS`: how long a replica holds a lead without renewing before another takes it over. */
    leaseMs: number
    /** `LEAD_CEILING_PER_MINUTE`: second-look leads a minute from every address together (Redis: every replica). */
    leadCeilingPerMinute: number
    /** `LEAD_ID_HASH_SECRET`: key of the partner lead_id hash; derived from `sessionSecret` when unset. */
    leadIdHashSecret: string | undefined
    /** `DUPLICATE_WINDOW_DAYS`: one application per applicant within it reaches partners; 0 is off. */
    duplicateWindowDays: number
    /** `MAX_BIRTH_DATES_PER_SSN`: dates of birth one SSN may apply with within the window; past it, held for review. */
    maxBirthDatesPerSsn: number
    /** `CONSENT_RETENTION_DAYS`: how long consent records are kept. */
    consentRetentionDays: number
  }
  /** OpenTelemetry tracing; undefined (off, nothing loaded) without an OTLP endpoint. */
  tracing: TracingConfig | undefined
}

export interface TracingConfig {
  /** Where spans are posted: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  tracesUrl: string
  protocol: 'http/protobuf' | 'http/json'
  /** `OTEL_SERVICE_NAME`; `offer-widget-bff` by default. */
  serviceName: string
  /**
   * `TRACE_TRUST_INCOMING=true`: an incoming `traceparent` from a trusted proxy (`TRUST_PROXY`) continues its
   * trace. Off by default: a proxy that passes a visitor's headers through would let the visitor steer ours.
   */
  trustIncoming: boolean
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** What is wrong with a parsed environment that its schema alone cannot say: one line per problem, with the fix. */
function configProblems(
  e: Env,
  { mode, baseUrl }: { mode: ModeChoice; baseUrl: string | undefined },
): string[] {
  const sandboxMode = mode.mode === 'sandbox'
  const production = `in production mode (${mode.why})`
  const problems: string[] = []
  if (!sandboxMode && e.SESSION_SECRET === undefined) {
    problems.push(
      `  SESSION_SECRET: required ${production}; ${MIN_SECRET_LENGTH}+ random characters (${SECRET_FIX})`,
    )
  }
  problems.push(...secretProblems(e))
  if (!sandboxMode && mode.offerSearch && baseUrl === undefined) {
    const name = e.ENGINE_ENV === 'test' ? 'ENGINE_BASE_URL_TEST' : 'ENGINE_BASE_URL_PRODUCTION'
    problems.push(`  ${name}: required when ENGINE_TOKEN is set and ENGINE_ENV=${e.ENGINE_ENV}`)
  }
  if (!sandboxMode && e.PARTNERS_FILE !== undefined && e.CONSENT_TEXTS_FILE === undefined) {
    // A lead carries the visitor's consent to the partners: the operator's own words, never a sample.
    problems.push(
      `  CONSENT_TEXTS_FILE: required with PARTNERS_FILE ${production}; the JSON or YAML file of your FCRA (and TCPA) consent texts, { "version": "2026-11", "fcra": "...", "tcpa": "..." } (docs/second-look.md)`,
    )
  }
  if (!sandboxMode && e.PUBLIC_BASE_URL === undefined) {
    // Links in answers (clicks, pixels) are built on it; the Host header is the visitor's to choose.
    problems.push(
      `  PUBLIC_BASE_URL: required ${production}; the https origin browsers reach this server at, e.g. https://offers.example.com`,
    )
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('  HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS')
  }
  const trustProblem = e.TRUST_PROXY === undefined ? undefined : trustProxyProblem(e.TRUST_PROXY)
  if (trustProblem !== undefined) {
    problems.push(
      `  TRUST_PROXY: ${trustProblem}; must be a hop count (e.g. 1) or a comma-separated list of IP addresses, CIDRs (e.g. 10.0.0.0/8) and loopback, linklocal, uniquelocal`,
    )
  }
  e.ALLOWED_ORIGINS.forEach((origin, index) => {
    if (!isOrigin(origin)) {
      // The entry is shown redacted: a mistaken paste may be a URL with a password or token in it.
      const show = origin === '*' ? '*' : shown('ALLOWED_ORIGINS', origin)
      const what =
        show === undefined ? `entry ${index + 1} (not a URL; value not shown)` : JSON.stringify(show)
      problems.push(
        `  ALLOWED_ORIGINS: ${what} is not an origin; write scheme://host[:port] with no path, never *`,
      )
    }
  })
  const protocol = e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL
  if (protocol === 'grpc') {
    const name = e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
      ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_PROTOCOL'
    problems.push(
      `  ${name}: grpc is not supported by this server; use http/protobuf (a collector's port 4318) or http/json`,
    )
  }
  return problems
}

/** Reads and validates the environment; throws `ConfigError` naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '(environment)')
      const message =
        issue.message && issue.message !== 'Invalid input' ? issue.message : `${name} is invalid`
      return `  ${name}: ${message}${gotValue(name, env[name])}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every variable.`)
  }
  const e = parsed.data
  const mode = chooseMode(e)
  const baseUrl = e.ENGINE_ENV === 'test' ? e.ENGINE_BASE_URL_TEST : e.ENGINE_BASE_URL_PRODUCTION
  const problems = [...modeProblems(e, mode, env), ...configProblems(e, { mode, baseUrl })]
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${problems.join('\n')}\nSee .env.example for every variable.`,
    )
  }
  return configFrom(e, mode, baseUrl, env)
}

/** The checked variables as the process's configuration: defaults, derived values and made-up sandbox secrets. */
function configFrom(
  e: Env,
  mode: ModeChoice,
  baseUrl: string | undefined,
  env: Record<string, string | undefined>,
): Config {
  const sandboxMode = mode.mode === 'sandbox'
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    sandboxMode,
    modeReason: mode.why,
    offerSearch: mode.offerSearch,
    engine: {
      env: e.ENGINE_ENV,
      baseUrl,
      token: e.ENGINE_TOKEN ?? (e.ENGINE_ENV === 'test' ? e.SANDBOX_TEST_TOKEN : e.SANDBOX_PRODUCTION_TOKEN),
      apiVersion: e.API_VERSION,
    },
    // Sandbox mode has no secret to keep across restarts: a random one per process is safe.
    sessionSecret: e.SESSION_SECRET ?? randomBytes(32).toString('hex'),
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.ALLOWED_ORIGINS,
    redisUrl: e.REDIS_URL,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    embedRetentionDays: e.EMBED_RETENTION_DAYS,
    zipCodeKey: e.ZIP_CODE_KEY,
    sandboxTokens: { test: e.SANDBOX_TEST_TOKEN, production: e.SANDBOX_PRODUCTION_TOKEN },
    partnersFile: e.PARTNERS_FILE,
    consentTextsFile: e.CONSENT_TEXTS_FILE,
    // Sandbox mode shows the whole product with no setup, partner reports included: a fresh random token
    // per process, printed at start. Outside sandbox mode reports stay off until REPORTS_TOKEN is set.
    reportsToken: e.REPORTS_TOKEN ?? (sandboxMode ? randomBytes(16).toString('hex') : undefined),
    reportsTokenGenerated: e.REPORTS_TOKEN === undefined && sandboxMode,
    sandboxPartnerReportsToken:
      sandboxMode && e.PARTNERS_FILE === undefined ? randomBytes(16).toString('hex') : undefined,
    winnerPolicy: e.WINNER_POLICY,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    serveDemoPages: e.SERVE_DEMO_PAGES === undefined ? sandboxMode : e.SERVE_DEMO_PAGES === 'true',
    partnerSecrets: partnerSecrets(env),
    rateLimit: {
      points: sandboxMode ? e.SANDBOX_RATE_LIMIT_POINTS : e.RATE_LIMIT_POINTS,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    },
    upstreamTimeouts: { connectMs: e.UPSTREAM_CONNECT_TIMEOUT_MS, requestMs: e.UPSTREAM_TIMEOUT_MS },
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    serverApiKeys: e.SERVER_API_KEYS,
    serverRateLimit: { points: e.SERVER_RATE_LIMIT_POINTS, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
    http: {
      headersMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    },
    marketplace: {
      ledgerTimeoutMs: e.LEDGER_TIMEOUT_MS,
      firstLookDeadlineMs: e.FIRST_LOOK_DEADLINE_MS,
      drainTimeoutMs: e.MARKETPLACE_DRAIN_TIMEOUT_MS,
      leaseMs: e.LEAD_LEASE_MS,
      leadCeilingPerMinute: e.LEAD_CEILING_PER_MINUTE,
      // Key of the partner lead_id hash that conversions match on; derived from SESSION_SECRET when unset.
      leadIdHashSecret: e.LEAD_ID_HASH_SECRET,
      duplicateWindowDays: e.DUPLICATE_WINDOW_DAYS,
      maxBirthDatesPerSsn: e.MAX_BIRTH_DATES_PER_SSN,
      consentRetentionDays: e.CONSENT_RETENTION_DAYS,
    },
    tracing: tracingConfig(e),
  }
}

/** On with an OTLP endpoint, unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. */
function tracingConfig(e: Env): TracingConfig | undefined {
  if (e.OTEL_SDK_DISABLED === 'true' || e.OTEL_TRACES_EXPORTER === 'none') return undefined
  const tracesUrl =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (e.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
      ? undefined
      : `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`)
  if (tracesUrl === undefined) return undefined
  const protocol = e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL
  return {
    tracesUrl,
    protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
    serviceName: e.OTEL_SERVICE_NAME ?? 'offer-widget-bff',
    trustIncoming: e.TRACE_TRUST_INCOMING === 'true',
  }
}
