import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { ConsentTextsError } from '../../src/marketplace/consent/consent-texts.ts'
import { ConfigError, loadConfig } from '../../src/server/config.ts'
import { applyEnvFile } from '../../src/server/env-file.ts'
import { startSecondLook } from '../../src/server/start-second-look.ts'
import { testSecret } from '../support/test-secret.ts'

describe('config', () => {
  it('runs on the embedded defaults with an empty environment: sandbox mode', () => {
    const config = loadConfig({})
    expect(config.sandboxMode).toBe(true)
    expect(config.port).toBe(8787)
    expect(config.engine.apiVersion).toBe('2026-02-25')
    expect(config.zipCodeKey).toBe('zipcode')
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32)
  })

  it('turns partner reports on in sandbox mode with a random token, and leaves them off otherwise', () => {
    const sandbox = loadConfig({})
    expect(sandbox.reportsToken).toMatch(/^[0-9a-f]{32}$/)
    expect(sandbox.reportsTokenGenerated).toBe(true)
    // And one simulated partner's own token, unless a partner file replaces the simulated partners.
    expect(sandbox.sandboxPartnerReportsToken).toMatch(/^[0-9a-f]{32}$/)
    expect(sandbox.sandboxPartnerReportsToken).not.toBe(sandbox.reportsToken)
    expect(loadConfig({ PARTNERS_FILE: 'partners.yaml' }).sandboxPartnerReportsToken).toBeUndefined()
    expect(loadConfig({ REPORTS_TOKEN: testSecret('chosen') })).toMatchObject({
      reportsToken: testSecret('chosen'),
      reportsTokenGenerated: false,
    })
    const real = loadConfig({
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: testSecret('x', 32),
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
      PUBLIC_BASE_URL: 'https://offers.example.com',
    })
    expect(real.reportsToken).toBeUndefined()
    expect(real.sandboxPartnerReportsToken).toBeUndefined()
  })

  it('gives sandbox mode its own per-IP allowance (SANDBOX_RATE_LIMIT_POINTS), the real API RATE_LIMIT_POINTS', () => {
    expect(loadConfig({}).rateLimit).toEqual({ points: 600, windowSeconds: 60 })
    expect(loadConfig({ SANDBOX_RATE_LIMIT_POINTS: '50', RATE_LIMIT_POINTS: '5' }).rateLimit.points).toBe(50)
    const real = {
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: testSecret('x', 32),
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
      PUBLIC_BASE_URL: 'https://offers.example.com',
    }
    expect(loadConfig(real).rateLimit.points).toBe(20)
    expect(loadConfig({ ...real, SANDBOX_RATE_LIMIT_POINTS: '600' }).rateLimit.points).toBe(20)
    expect(() => loadConfig({ SANDBOX_RATE_LIMIT_POINTS: 'lots' })).toThrow(/SANDBOX_RATE_LIMIT_POINTS/)
  })

  it('keeps replaced embed bundles 90 days unless EMBED_RETENTION_DAYS says otherwise (1-3650), naming it when bad', () => {
    expect(loadConfig({}).embedRetentionDays).toBe(90)
    expect(loadConfig({ EMBED_RETENTION_DAYS: '365' }).embedRetentionDays).toBe(365)
    expect(() => loadConfig({ EMBED_RETENTION_DAYS: '0' })).toThrow(/EMBED_RETENTION_DAYS must be at least 1/)
    expect(() => loadConfig({ EMBED_RETENTION_DAYS: 'forever' })).toThrow(
      /EMBED_RETENTION_DAYS must be a whole number 1-3650/,
    )
  })

  it('turns tracing on with the standard OTLP variables only, and names the fix for what it cannot take', () => {
    expect(loadConfig({}).tracing).toBeUndefined()
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'offer-widget-bff',
      trustIncoming: false,
    })
    // The signal-specific endpoint is used as given, and wins.
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'offers-eu',
        TRACE_TRUST_INCOMING: 'true',
      }).tracing,
    ).toEqual({
      tracesUrl: 'https://traces.example.com/otlp',
      protocol: 'http/json',
      serviceName: 'offers-eu',
      trustIncoming: true,
    })
    for (const off of [{ OTEL_SDK_DISABLED: 'true' }, { OTEL_TRACES_EXPORTER: 'none' }]) {
      expect(
        loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', ...off }).tracing,
      ).toBeUndefined()
    }
    expect(() =>
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL: grpc is not supported by this server; use http\/protobuf/)
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute http\(s\) URL/,
    )
    // An endpoint's credentials never reach the message.
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://user:hunter2@collector' })).toThrow(
      /got "ftp:\/\/\*\*\*@collector\/"/,
    )
  })

  it('second look: a 30-day duplicate window (0 is off) and 1825 days of consent records, each bad value named with its fix', () => {
    expect(loadConfig({}).marketplace).toMatchObject({ duplicateWindowDays: 30, consentRetentionDays: 1825 })
    expect(loadConfig({ DUPLICATE_WINDOW_DAYS: '0' }).marketplace.duplicateWindowDays).toBe(0)
    expect(() => loadConfig({ DUPLICATE_WINDOW_DAYS: 'a month' })).toThrow(
      /DUPLICATE_WINDOW_DAYS: DUPLICATE_WINDOW_DAYS must be a whole number 0-365 \(default 30; 0 turns the duplicate check off\)/,
    )
    expect(() => loadConfig({ DUPLICATE_WINDOW_DAYS: '400' })).toThrow(
      /DUPLICATE_WINDOW_DAYS must be at most 365/,
    )
    expect(loadConfig({}).marketplace.maxBirthDatesPerSsn).toBe(2)
    expect(loadConfig({ MAX_BIRTH_DATES_PER_SSN: '1' }).marketplace.maxBirthDatesPerSsn).toBe(1)
    expect(() => loadConfig({ MAX_BIRTH_DATES_PER_SSN: '0' })).toThrow(
      /MAX_BIRTH_DATES_PER_SSN: MAX_BIRTH_DATES_PER_SSN must be at least 1 \(default 2; dates of birth one SSN may apply with within the duplicate window\)/,
    )
    expect(() => loadConfig({ CONSENT_RETENTION_DAYS: '0' })).toThrow(
      /CONSENT_RETENTION_DAYS: CONSENT_RETENTION_DAYS must be at least 1 \(default 1825; 5 years, FCRA's statute of limitations; TCPA's is 4\)/,
    )
    expect(() => loadConfig({ CONSENT_RETENTION_DAYS: 'forever' })).toThrow(
      /CONSENT_RETENTION_DAYS must be a whole number/,
    )
  })

  it("requires CONSENT_TEXTS_FILE once real partners get leads: the operator's own texts, never the sample ones", () => {
    const production = {
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: testSecret('x', 32),
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
      PUBLIC_BASE_URL: 'https://offers.example.com',
    }
    expect(loadConfig(production).consentTextsFile).toBeUndefined()
    expect(() => loadConfig({ ...production, PARTNERS_FILE: 'partners.yaml' })).toThrow(
      /CONSENT_TEXTS_FILE: required with PARTNERS_FILE in production mode \(ENGINE_TOKEN is set\); the JSON or YAML file of your FCRA \(and TCPA\) consent texts/,
    )
    const config = loadConfig({
      ...production,
      PARTNERS_FILE: 'partners.yaml',
      CONSENT_TEXTS_FILE: 'texts.yaml',
    })
    expect(config.consentTextsFile).toBe('texts.yaml')
    // Sandbox mode has texts built in.
    expect(() => loadConfig({ PARTNERS_FILE: 'partners.yaml' })).not.toThrow()
  })

  it('a bad CONSENT_TEXTS_FILE stops the start before anything is opened, naming the file, the field and the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-consent-'))
    const file = join(dir, 'texts.yaml')
    writeFileSync(file, 'version: "2026-11"\nfcra: ""\n')
    const start = startSecondLook(loadConfig({ CONSENT_TEXTS_FILE: file, LOG_LEVEL: 'silent' }), {
      logger: pino({ level: 'silent' }),
      inMemoryLedger: true,
    })
    await expect(start).rejects.toThrow(ConsentTextsError)
    await expect(start).rejects.toThrow(
      `CONSENT_TEXTS_FILE ${file} is invalid:\n  fcra: fcra must not be empty`,
    )
    await expect(
      startSecondLook(loadConfig({ CONSENT_TEXTS_FILE: join(dir, 'missing.yaml') }), {
        logger: pino({ level: 'silent' }),
      }),
    ).rejects.toThrow(/CONSENT_TEXTS_FILE .*missing\.yaml: cannot be read \(ENOENT\)/)
  })

  it('uses a fresh random session secret per process in sandbox mode', () => {
    expect(loadConfig({}).sessionSecret).not.toBe(loadConfig({}).sessionSecret)
  })

  it('names the variable and the fix when a value is bad', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: PORT must be a whole number/)
    expect(() => loadConfig({ ENGINE_ENV: 'staging' })).toThrow(/ENGINE_ENV/)
    expect(() => loadConfig({ ZIP_CODE_KEY: 'zip' })).toThrow(/ZIP_CODE_KEY/)
    expect(() => loadConfig({ ALLOWED_ORIGINS: '*' })).toThrow(/ALLOWED_ORIGINS: "\*" is not an origin/)
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY: invalid IP address: everyone/)
  })

  it('reads TRUST_PROXY with the parser the server trusts proxies by: what passes the config starts', () => {
    // These passed a looser check of their own, then failed at the start with a stack trace.
    expect(() => loadConfig({ TRUST_PROXY: '999.1.1.1' })).toThrow(
      /TRUST_PROXY: invalid IP address: 999\.1\.1\.1;/,
    )
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1/129' })).toThrow(
      /TRUST_PROXY: invalid range on address: ::1\/129; must be a hop count/,
    )
    for (const good of [
      '1',
      '0',
      'loopback',
      '10.0.0.0/8, uniquelocal',
      '192.0.2.7',
      '1.2.3.4/255.255.0.0',
    ]) {
      expect(loadConfig({ TRUST_PROXY: good }).trustProxy, good).toBe(good)
    }
  })

  it('requires SESSION_SECRET and the base URL once a real token is configured', () => {
    const attempt = () => loadConfig({ ENGINE_TOKEN: 'real-token' })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(/SESSION_SECRET: required in production mode \(ENGINE_TOKEN is set\)/)
    expect(attempt).toThrow(/ENGINE_BASE_URL_TEST: required/)
  })

  it('requires PUBLIC_BASE_URL outside sandbox mode: links are never built from the Host header', () => {
    const env = {
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: testSecret('x', 32),
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
    }
    expect(() => loadConfig(env)).toThrow(
      /PUBLIC_BASE_URL: required in production mode \(ENGINE_TOKEN is set\)/,
    )
    expect(() => loadConfig({ ...env, PUBLIC_BASE_URL: 'offers.example.com' })).toThrow(
      /PUBLIC_BASE_URL must be an absolute http\(s\) URL/,
    )
    expect(loadConfig({ ...env, PUBLIC_BASE_URL: 'https://offers.example.com/' }).publicBaseUrl).toBe(
      'https://offers.example.com',
    )
    expect(loadConfig({}).publicBaseUrl).toBeUndefined()
  })

  it('bounds slow clients: a body that never arrives is cut within 30 s by default', () => {
    const { http } = loadConfig({})
    expect(http.requestMs).toBeLessThanOrEqual(29_000)
    expect(http.headersMs).toBeLessThanOrEqual(http.requestMs)
    expect(http.maxConnectionsPerIp).toBeGreaterThan(0)
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '20000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    )
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_IP: '0' })).toThrow(
      /MAX_CONNECTIONS_PER_IP must be at least 1/,
    )
  })

  it('picks the base URL of ENGINE_ENV and keeps the token', () => {
    const config = loadConfig({
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: testSecret('x', 32),
      ENGINE_ENV: 'production',
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
      ENGINE_BASE_URL_PRODUCTION: 'https://api.example.com',
      PUBLIC_BASE_URL: 'https://offers.example.com',
      ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com',
    })
    expect(config.sandboxMode).toBe(false)
    expect(config.engine).toMatchObject({
      env: 'production',
      baseUrl: 'https://api.example.com',
      token: 'real-token',
    })
    expect(config.allowedOrigins).toEqual(['https://a.example.com', 'https://b.example.com'])
  })
})

describe('config errors never echo secrets', () => {
  const message = (env: Record<string, string>) => {
    try {
      loadConfig(env)
    } catch (error) {
      return (error as Error).message
    }
    throw new Error('expected a ConfigError')
  }

  it.each([
    [
      'DATABASE_URL',
      'mysql://admin:hunter2-password@db.internal:3306/x',
      '"mysql://***@db.internal:3306/***"',
    ],
    ['REDIS_URL', 'http://default:hunter2-password@cache.internal:6379', '"http://***@cache.internal:6379/"'],
  ])('%s: the bad value is shown without its password', (name, value, expected) => {
    const text = message({ [name]: value })
    expect(text).toContain(name)
    expect(text).toContain(expected)
    expect(text).not.toContain('hunter2')
  })

  // Issue 44: every URL variable, in every bad form (unparsable, wrong scheme, not an origin), names the
  // variable and the fix and never echoes a password, a token in the user name or query, or an unparsable value.
  const SECRET = 's3cr3t-XYZ'
  const production = {
    ENGINE_TOKEN: 'real-token',
    SESSION_SECRET: testSecret('x', 32),
    ENGINE_BASE_URL_TEST: 'https://test.example.com',
    PUBLIC_BASE_URL: 'https://offers.example.com',
  }
  const bad = (scheme: string) => [
    `${scheme}//user:${SECRET}@host/db`, // no colon after the scheme: unparsable
    `user:${SECRET}@host:5432/db`, // no scheme: unparsable (or a scheme "user:")
    `${SECRET}`, // a bare token pasted in the wrong variable
    `ftp://user:${SECRET}@host/x?sslpassword=${SECRET}&token=${SECRET}#${SECRET}`, // wrong scheme
    `ftp://${SECRET}@host/x`, // a token as the user name
    `mysql://host/x?${SECRET}`, // a bare query token
  ]
  it.each([
    ['ENGINE_BASE_URL_TEST', 'https:', /must be an absolute http\(s\) URL/],
    ['ENGINE_BASE_URL_PRODUCTION', 'https:', /must be an absolute http\(s\) URL/],
    ['PUBLIC_BASE_URL', 'https:', /must be an absolute http\(s\) URL/],
    ['DATABASE_URL', 'postgres:', /must be a URL like postgresql:\/\/host:port/],
    ['REDIS_URL', 'redis:', /must be a URL like rediss:\/\/host:port/],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'http:', /must be an absolute http\(s\) URL/],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http:', /must be an absolute http\(s\) URL/],
    ['ALLOWED_ORIGINS', 'https:', /is not an origin; write scheme:\/\/host\[:port\]/],
  ])(
    '%s: a bad value with a credential is named with its fix, the credential never shown',
    (name, scheme, fix) => {
      const values = [
        ...bad(scheme),
        // Well-formed in scheme but still wrong for the variable: a path (an origin) or a query.
        `${scheme}//user:${SECRET}@host/path?sslpassword=${SECRET}`,
      ]
      for (const value of values) {
        const env = { ...production, [name]: value }
        let text: string
        try {
          loadConfig(env)
          // Only `https://user:pw@host/path?...` may be valid here (an http(s) URL variable): nothing printed.
          continue
        } catch (error) {
          text = (error as Error).message
        }
        expect(text, value).toContain(`  ${name}: `)
        expect(text, value).toMatch(fix)
        expect(text, value).not.toContain(SECRET)
      }
    },
  )

  it('shows what it can of a wrong-scheme URL: its scheme and host, ***@ and /*** for the rest', () => {
    const text = message({ DATABASE_URL: `mysql://app:${SECRET}@db.internal/x?sslpassword=${SECRET}&mode=a` })
    expect(text).toContain('"mysql://***@db.internal/***"')
    expect(
      message({ ALLOWED_ORIGINS: `https://a.example.com, https://u:${SECRET}@b.example.com/` }),
    ).toContain('ALLOWED_ORIGINS: "https://***@b.example.com/" is not an origin')
    expect(message({ PUBLIC_BASE_URL: `offers.example.com?k=${SECRET}` })).toMatch(
      /PUBLIC_BASE_URL: PUBLIC_BASE_URL must be an absolute http\(s\) URL \(value not shown: it is not a URL/,
    )
  })

  it('a bad secret-bearing value is never shown', () => {
    const text = message({ SANDBOX_TEST_TOKEN: 'short' })
    expect(text).toContain('SANDBOX_TEST_TOKEN')
    expect(text).not.toContain('"short"')
  })
})

describe('config errors show of a URL its scheme and host only', () => {
  const HIDDEN = 'P4THSECRET'
  const production = {
    ENGINE_TOKEN: 'real-token',
    SESSION_SECRET: testSecret('x', 32),
    ENGINE_BASE_URL_TEST: 'https://test.example.com',
    PUBLIC_BASE_URL: 'https://offers.example.com',
  }
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env)
    } catch (error) {
      return (error as Error).message
    }
    throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`)
  }
  // Every URL-valued variable, and one that is not (PORT) given a URL: a wrong scheme for the first, a path
  // (no origin) for ALLOWED_ORIGINS.
  const variables: Array<[string, string]> = [
    ['PUBLIC_BASE_URL', 'ftp:'],
    ['ENGINE_BASE_URL_TEST', 'ftp:'],
    ['ENGINE_BASE_URL_PRODUCTION', 'ftp:'],
    ['DATABASE_URL', 'mysql:'],
    ['REDIS_URL', 'memcached:'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'ftp:'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'ftp:'],
    ['ALLOWED_ORIGINS', 'https:'],
    ['PORT', 'ftp:'],
  ]
  const parts = (scheme: string): Array<[string, string]> => [
    ['path', `${scheme}//host.example.com/${HIDDEN}`],
    ['query', `${scheme}//host.example.com/x?${HIDDEN}`],
    ['query value', `${scheme}//host.example.com/?k=${HIDDEN}`],
    ['fragment', `${scheme}//host.example.com/#${HIDDEN}`],
    ['user name', `${scheme}//${HIDDEN}@host.example.com/`],
    ['password', `${scheme}//user:${HIDDEN}@host.example.com:8080/`],
  ]
  it.each(variables)('%s: names the variable, shows scheme and host, hides the rest', (name, scheme) => {
    for (const [part, value] of parts(scheme)) {
      const text = refusal({ ...production, [name]: value })
      expect(text, part).toContain(`  ${name}: `)
      expect(text, part).toContain(`${scheme}//`)
      expect(text, part).toContain('host.example.com')
      expect(text, part).not.toContain(HIDDEN)
      expect(text, part).not.toContain('user')
    }
  })

  it('shows PUBLIC_BASE_URL=ftp://host/P4THSECRET as ftp://host/***', () => {
    expect(refusal({ PUBLIC_BASE_URL: `ftp://host/${HIDDEN}` })).toContain(
      'PUBLIC_BASE_URL: PUBLIC_BASE_URL must be an absolute http(s) URL (got "ftp://host/***")',
    )
  })
})

describe('.env (applyEnvFile)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'config-dotenv-'))
  const write = (name: string, text: string) => {
    const file = join(dir, name)
    writeFileSync(file, text)
    return file
  }

  it('sets what the environment lacks and keeps what it has, even empty; names, never values', () => {
    const file = write(
      '.env',
      '# comment\nPORT=9000\nHOST="0.0.0.0"\nLOG_LEVEL=debug\nREDIS_URL=redis://cache:6379\n',
    )
    const env: Record<string, string | undefined> = { LOG_LEVEL: 'warn', REDIS_URL: '' }
    const result = applyEnvFile(file, env)
    expect(env).toEqual({ LOG_LEVEL: 'warn', REDIS_URL: '', PORT: '9000', HOST: '0.0.0.0' })
    expect(result).toEqual({ file, set: ['HOST', 'PORT'], kept: ['LOG_LEVEL', 'REDIS_URL'], warnings: [] })
    expect(loadConfig(env)).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      logLevel: 'warn',
      redisUrl: undefined,
    })
  })

  it('does nothing without the file', () => {
    const env = {}
    expect(applyEnvFile(join(dir, 'missing.env'), env)).toBeUndefined()
    expect(env).toEqual({})
  })

  it('.env.example copied to .env starts in sandbox mode on the defaults', () => {
    const env: Record<string, string | undefined> = {}
    applyEnvFile(join(import.meta.dirname, '../../.env.example'), env)
    expect(Object.keys(env).length).toBeGreaterThan(10)
    expect(loadConfig(env)).toMatchObject({ sandboxMode: true, port: 8787, host: '127.0.0.1' })
  })
})
