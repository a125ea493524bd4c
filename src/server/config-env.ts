/**
 * @module The environment's zod schema (`envSchema`): every variable the server reads, its type, default and
 * the message that names it when its value is refused. config.ts reads the environment through it and then
 * judges what spans several variables (modes, secrets); docs/configuration.md has a row for each key, and
 * the docs site a page (scripts/docs-reference.ts fails the build when the two drift).
 */
import * as z from 'zod/mini'
import { httpUrlField } from '../contract/http-url.ts'
import { API_VERSION_PATTERN, CURRENT_API_VERSION, ZIP_KEYS } from '../contract/offer-search.ts'
import { SANDBOX_DEFAULT_TOKENS } from '../sandbox/types.ts'

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

export const envSchema = z.object({
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
  MAX_BIRTH_DATES_PER_SSN: wholeNumber(
    'MAX_BIRTH_DATES_PER_SSN',
    '2',
    1,
    10,
    'dates of birth one SSN may apply with within the duplicate window',
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

export type Env = z.infer<typeof envSchema>
