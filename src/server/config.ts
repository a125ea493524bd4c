/**
 * @module The only reader of `process.env`: validates every variable with zod and fails at start with a
 * message naming the variable and the fix.
 */
import { randomBytes } from 'node:crypto'
import * as z from 'zod/mini'
import { httpUrlField } from '../contract/http-url.ts'
import { API_VERSION_PATTERN, CURRENT_API_VERSION, ZIP_KEYS } from '../contract/offer-search.ts'
import { trustProxyProblem } from '../http/client-address.ts'
import { MIN_SECRET_LENGTH, SECRET_FIX } from '../http/server-secret.ts'
import { SANDBOX_DEFAULT_TOKENS } from '../sandbox/types.ts'
import { chooseMode, type ModeChoice, modeProblems } from './config-mode.ts'
import { secretProblems } from './config-secrets.ts'
import { gotValue, isOrigin, partnerSecrets, shown } from './config-values.ts'

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value)
const optionalString = z.pipe(z.transform(emptyToUndefined), z.optional(z.string()))
const csv = z.pipe(
  z.transform((value: unknown) =>
    typeof value === 'string' && value.trim() !== ''
      ? value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
      : [],
  ),
  z.array(z.string()),
)
const httpUrl = (name: string) => z.pipe(z.transform(emptyToUndefined), z.optional(httpUrlField(name)))

const otlpProtocol = (name: string) =>
  z.pipe(
    z.transform(emptyToUndefined),
    z.optional(
      z.enum(['http/protobuf', 'http/json', 'grpc'], {
        error: `${name} must be "http/protobuf" (the default) or "http/json"`,
      }),
    ),
  )

const envSchema = z.object({
  NODE_ENV: z._default(z.enum(['development', 'production', 'test']), 'development'),
  PORT: z.pipe(
    z._default(z.string(), '8787'),
    z.pipe(
      z.transform((v: string) => (/^\d+$/.test(v) ? Number(v) : Number.NaN)),
      z.int({ error: 'PORT must be a whole number 0-65535' }).check(z.gte(0), z.lte(65535)),
    ),
  ),
  HOST: z._default(z.string(), '127.0.0.1'),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  ENGINE_ENV: z._default(
    z.enum(['test', 'production'], { error: 'ENGINE_ENV must be "test" or "production"' }),
    'test',
  ),
  ENGINE_BASE_URL_TEST: httpUrl('ENGINE_BASE_URL_TEST'),
  ENGINE_BASE_URL_PRODUCTION: httpUrl('ENGINE_BASE_URL_PRODUCTION'),
  ENGINE_TOKEN: optionalString,
  BFF_MODE: z.pipe(
    z.transform(emptyToUndefined),
    z.optional(
      z.enum(['sandbox', 'production'], {
        error: 'BFF_MODE must be "sandbox" or "production" (unset: production when ENGINE_TOKEN is set)',
      }),
    ),
  ),
  API_VERSION: z._default(
    z.string().check(z.regex(API_VERSION_PATTERN, { error: 'API_VERSION must look like 2026-02-25' })),
    CURRENT_API_VERSION,
  ),
  SESSION_SECRET: optionalString,
  LEAD_ID_HASH_SECRET: optionalString,
  TRUST_PROXY: optionalString,
  ALLOWED_ORIGINS: csv,
  REDIS_URL: httpUrlLike('REDIS_URL', /^rediss?$/),
  DATABASE_URL: httpUrlLike('DATABASE_URL', /^postgres(ql)?$/),
  DATA_DIR: z._default(z.string(), './data'),
  // How long a replaced script-tag bundle stays servable at its hashed URL for pages pinned to it with SRI
  // (docs/upgrading.md): a publisher has this long to paste the new snippet after an upgrade.
  EMBED_RETENTION_DAYS: wholeNumber('EMBED_RETENTION_DAYS', '90', 1, 3650),
  ZIP_CODE_KEY: z._default(
    z.enum(ZIP_KEYS, { error: 'ZIP_CODE_KEY must be "zipcode" or "zipCode"' }),
    'zipcode',
  ),
  SANDBOX_TEST_TOKEN: z._default(z.string().check(z.minLength(8)), SANDBOX_DEFAULT_TOKENS.test),
  SANDBOX_PRODUCTION_TOKEN: z._default(z.string().check(z.minLength(8)), SANDBOX_DEFAULT_TOKENS.production),
  PARTNERS_FILE: optionalString,
  CONSENT_TEXTS_FILE: optionalString,
  REPORTS_TOKEN: optionalString,
  WINNER_POLICY: z._default(
    z.enum(['phase1', 'phase2'], { error: 'WINNER_POLICY must be "phase1" or "phase2"' }),
    'phase1',
  ),
  PUBLIC_BASE_URL: httpUrl('PUBLIC_BASE_URL'),
  SERVE_DEMO_PAGES: z.pipe(
    z.transform(emptyToUndefined),
    z.optional(z.enum(['true', 'false'], { error: 'SERVE_DEMO_PAGES must be "true" or "false"' })),
  ),
  RATE_LIMIT_POINTS: wholeNumber('RATE_LIMIT_POINTS', '20', 1, 1_000_000),
  RATE_LIMIT_WINDOW_SECONDS: wholeNumber('RATE_LIMIT_WINDOW_SECONDS', '60', 1, 86_400),
  // Sandbox mode's allowance: no real upstream is behind it, and the playground flips stories (each a
  // new search) far faster than a visitor searches; 20 a minute would end in the error state.
  SANDBOX_RATE_LIMIT_POINTS: wholeNumber('SANDBOX_RATE_LIMIT_POINTS', '600', 1, 1_000_000),
  UPSTREAM_CONNECT_TIMEOUT_MS: wholeNumber('UPSTREAM_CONNECT_TIMEOUT_MS', '3000', 100, 60_000),
  UPSTREAM_TIMEOUT_MS: wholeNumber('UPSTREAM_TIMEOUT_MS', '5000', 100, 120_000),
  // docs/offer-search-api.md polls for up to 15 s; a token must outlive that with room for a slow visitor.
  ACCESS_TOKEN_TTL_SECONDS: wholeNumber('ACCESS_TOKEN_TTL_SECONDS', '1800', 900, 86_400),
  // Secrets: checked below, where a message can name the variable without echoing its value.
  SERVER_API_KEYS: csv,
  // One key serves every visitor of a publisher's server, so its limit is far above the per-IP one.
  SERVER_RATE_LIMIT_POINTS: wholeNumber('SERVER_RATE_LIMIT_POINTS', '600', 1, 1_000_000),
  // Slow clients: the request line and headers, then the whole request, must arrive within these.
  HTTP_HEADERS_TIMEOUT_MS: wholeNumber('HTTP_HEADERS_TIMEOUT_MS', '10000', 1000, 60_000),
  HTTP_REQUEST_TIMEOUT_MS: wholeNumber('HTTP_REQUEST_TIMEOUT_MS', '20000', 1000, 60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: wholeNumber('HTTP_KEEP_ALIVE_TIMEOUT_MS', '5000', 1000, 120_000),
  MAX_CONNECTIONS_PER_IP: wholeNumber('MAX_CONNECTIONS_PER_IP', '64', 1, 100_000),
  // Marketplace ledger and tiers (docs/decisions/0089-write-ahead-ledger.md).
  LEDGER_TIMEOUT_MS: wholeNumber('LEDGER_TIMEOUT_MS', '2000', 100, 60_000),
  FIRST_LOOK_DEADLINE_MS: wholeNumber('FIRST_LOOK_DEADLINE_MS', '12000', 100, 12_000),
  LEAD_LEASE_MS: wholeNumber('LEAD_LEASE_MS', '3000', 300, 12_000),
  // Beside the per-address and per-applicant limits: every replica's leads together, a minute.
  LEAD_CEILING_PER_MINUTE: wholeNumber(
    'LEAD_CEILING_PER_MINUTE',
    '600',
    1,
    1_000_000,
    'leads a minute across every replica',
  ),
  MARKETPLACE_DRAIN_TIMEOUT_MS: wholeNumber('MARKETPLACE_DRAIN_TIMEOUT_MS', '15000', 0, 120_000),
  // Second-look consent and duplicates (docs/decisions/0105-consent-records.md, 0106-duplicate-applicants.md).
  DUPLICATE_WINDOW_DAYS: wholeNumber(
    'DUPLICATE_WINDOW_DAYS',
    '30',
    0,
    365,
    '0 turns the duplicate check off',
  ),
  CONSENT_RETENTION_DAYS: wholeNumber(
    'CONSENT_RETENTION_DAYS',
    '1825',
    1,
    3650,
    "5 years, FCRA's statute of limitations; TCPA's is 4",
  ),
  // OpenTelemetry tracing (docs/operating.md): the standard variables; unset, nothing of the SDK loads.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol('OTEL_EXPORTER_OTLP_PROTOCOL'),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'),
  OTEL_TRACES_EXPORTER: z.pipe(
    z.transform(emptyToUndefined),
    z.optional(
      z.enum(['otlp', 'none'], {
        error: 'OTEL_TRACES_EXPORTER must be "otlp" (the default with an endpoint) or "none"',
      }),
    ),
  ),
  OTEL_SDK_DISABLED: z.pipe(
    z.transform(emptyToUndefined),
    z.optional(z.enum(['true', 'false'], { error: 'OTEL_SDK_DISABLED must be "true" or "false"' })),
  ),
  OTEL_SERVICE_NAME: optionalString,
  // Ours, not OpenTelemetry's: whether a trusted proxy's `traceparent` continues its trace (default: never).
  TRACE_TRUST_INCOMING: z.pipe(
    z.transform(emptyToUndefined),
    z.optional(
      z.enum(['true', 'false'], {
        error: 'TRACE_TRUST_INCOMING must be "true" (continue a trusted proxy\'s traceparent) or "false"',
      }),
    ),
  ),
})

function wholeNumber(name: string, fallback: string, min: number, max: number, fix?: string) {
  const hint = fix ? ` (default ${fallback}; ${fix})` : ''
  return z.pipe(
    z._default(z.string(), fallback),
    z.pipe(
      z.transform((v: string) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN)),
      z
        .int({ error: `${name} must be a whole number ${min}-${max}${hint}` })
        .check(
          z.gte(min, { error: `${name} must be at least ${min}${hint}` }),
          z.lte(max, { error: `${name} must be at most ${max}${hint}` }),
        ),
    ),
  )
}

function httpUrlLike(name: string, protocol: RegExp) {
  return z.pipe(
    z.transform(emptyToUndefined),
    z.optional(
      z.url({
        protocol,
        error: `${name} must be a URL like ${protocol.source.replace(/[\^$?()]/g, '')}://host:port/...`,
      }),
    ),
  )
}

type Env = z.infer<typeof envSchema>

export interface Config {
  nodeEnv: Env['NODE_ENV']
  port: number
  host: string
  logLevel: Env['LOG_LEVEL']
  /** Sandbox mode (src/server/config-mode.ts): the sandbox is mounted in-process and is the upstream. */
  sandboxMode: boolean
  /** The mode's reason, for the start log: `ENGINE_TOKEN is set`, `BFF_MODE=production`, ... */
  modeReason: string
  /**
   * False on a loan-only production server (`BFF_MODE=production`, no `ENGINE_TOKEN`): the offer-search
   * routes answer 404 and no upstream is called or checked.
   */
  offerSearch: boolean
  engine: {
    env: 'test' | 'production'
    /** Absent in sandbox mode until the server knows its own address (see `sandboxBaseUrl`). */
    baseUrl: string | undefined
    token: string
    apiVersion: string
  }
  sessionSecret: string
  /** Raw `TRUST_PROXY`: a hop count or a comma-separated list of CIDRs / proxy-addr keywords. */
  trustProxy: string | undefined
  allowedOrigins: string[]
  redisUrl: string | undefined
  databaseUrl: string | undefined
  dataDir: string
  /** Days a superseded script-tag bundle is kept under `DATA_DIR/embed` for pinned pages. */
  embedRetentionDays: number
  zipCodeKey: Env['ZIP_CODE_KEY']
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
   * Per-IP limit on lead-creating POSTs: `points` requests per `windowSeconds`. `points` is
   * `SANDBOX_RATE_LIMIT_POINTS` in sandbox mode, `RATE_LIMIT_POINTS` otherwise.
   */
  rateLimit: { points: number; windowSeconds: number }
  upstreamTimeouts: { connectMs: number; requestMs: number }
  accessTokenTtlSeconds: number
  /** `SERVER_API_KEYS`: bearer keys of `POST /api/server/offer-searches` (secrets: never log). Empty: off. */
  serverApiKeys: string[]
  /** Per-key limit of the server route: `points` searches per `windowSeconds`. */
  serverRateLimit: { points: number; windowSeconds: number }
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
  const sandboxMode = mode.mode === 'sandbox'
  const baseUrl = e.ENGINE_ENV === 'test' ? e.ENGINE_BASE_URL_TEST : e.ENGINE_BASE_URL_PRODUCTION
  const problems = [...modeProblems(e, mode, env), ...configProblems(e, { mode, baseUrl })]
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${problems.join('\n')}\nSee .env.example for every variable.`,
    )
  }
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
