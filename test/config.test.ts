import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.ts'

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
    expect(loadConfig({ REPORTS_TOKEN: 'chosen-token' })).toMatchObject({
      reportsToken: 'chosen-token',
      reportsTokenGenerated: false,
    })
    const real = loadConfig({
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: 'x'.repeat(32),
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
    })
    expect(real.reportsToken).toBeUndefined()
  })

  it('gives sandbox mode its own per-IP allowance (SANDBOX_RATE_LIMIT_POINTS), the real API RATE_LIMIT_POINTS', () => {
    expect(loadConfig({}).rateLimit).toEqual({ points: 600, windowSeconds: 60 })
    expect(loadConfig({ SANDBOX_RATE_LIMIT_POINTS: '50', RATE_LIMIT_POINTS: '5' }).rateLimit.points).toBe(50)
    const real = {
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: 'x'.repeat(32),
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
    }
    expect(loadConfig(real).rateLimit.points).toBe(20)
    expect(loadConfig({ ...real, SANDBOX_RATE_LIMIT_POINTS: '600' }).rateLimit.points).toBe(20)
    expect(() => loadConfig({ SANDBOX_RATE_LIMIT_POINTS: 'lots' })).toThrow(/SANDBOX_RATE_LIMIT_POINTS/)
  })

  it('uses a fresh random session secret per process in sandbox mode', () => {
    expect(loadConfig({}).sessionSecret).not.toBe(loadConfig({}).sessionSecret)
  })

  it('names the variable and the fix when a value is bad', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: PORT must be a whole number/)
    expect(() => loadConfig({ ENGINE_ENV: 'staging' })).toThrow(/ENGINE_ENV/)
    expect(() => loadConfig({ ZIP_CODE_KEY: 'zip' })).toThrow(/ZIP_CODE_KEY/)
    expect(() => loadConfig({ ALLOWED_ORIGINS: '*' })).toThrow(/ALLOWED_ORIGINS: "\*" is not an origin/)
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/)
  })

  it('requires SESSION_SECRET and the base URL once a real token is configured', () => {
    const attempt = () => loadConfig({ ENGINE_TOKEN: 'real-token' })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(/SESSION_SECRET: required when ENGINE_TOKEN is set/)
    expect(attempt).toThrow(/ENGINE_BASE_URL_TEST: required/)
  })

  it('picks the base URL of ENGINE_ENV and keeps the token', () => {
    const config = loadConfig({
      ENGINE_TOKEN: 'real-token',
      SESSION_SECRET: 'x'.repeat(32),
      ENGINE_ENV: 'production',
      ENGINE_BASE_URL_TEST: 'https://test.example.com',
      ENGINE_BASE_URL_PRODUCTION: 'https://api.example.com',
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
