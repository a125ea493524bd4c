import { describe, expect, it } from 'vitest'
import { upstreamErrorBodySchema } from '../../src/contract/offer-search.ts'
import { createSandbox } from '../../src/sandbox/index.ts'
import { SANDBOX_DEFAULT_TOKENS } from '../../src/sandbox/types.ts'
import { errorFields, harness, headers, TOKENS, validBody } from './support/sandbox-tests.ts'

const ANY_UUID = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
const endpoints = (env: 'test' | 'production') => [
  { method: 'GET', path: `/${env}/leads/autoInsurance/issuers` },
  { method: 'POST', path: `/${env}/offerSearches/`, body: JSON.stringify(validBody()) },
  { method: 'GET', path: `/${env}/offerSearches/${ANY_UUID}` },
]

describe('sandbox authentication (docs/offer-search-api.md: "Every request carries `Authorization: Bearer <AUTH_TOKEN>`")', () => {
  for (const env of ['test', 'production'] as const) {
    for (const { method, path, body } of endpoints(env)) {
      it(`${method} ${path}: "A missing ... token gives 401 Unauthorized"`, async () => {
        const { sandbox } = harness()
        const { authorization: _, ...rest } = headers(env)
        const response = await sandbox.app.request(path, { method, headers: rest, body })
        expect(response.status).toBe(401)
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
        expect(upstreamErrorBodySchema.safeParse(await response.json()).success).toBe(true)
      })

      it(`${method} ${path}: "... invalid token gives 401"`, async () => {
        const { sandbox } = harness()
        const response = await sandbox.app.request(path, {
          method,
          headers: headers(env, { authorization: 'Bearer not-a-real-token' }),
          body,
        })
        expect(response.status).toBe(401)
        expect(await errorFields(response)).toEqual(['Authorization'])
      })

      it(`${method} ${path}: "the wrong pairing gives 401" (token of the other environment)`, async () => {
        const { sandbox } = harness()
        const other = env === 'test' ? 'production' : 'test'
        const response = await sandbox.app.request(path, {
          method,
          headers: headers(env, { authorization: `Bearer ${TOKENS[other][0]}` }),
          body,
        })
        expect(response.status).toBe(401)
        const text = await response.text()
        expect(text).toContain(`${other} token`)
      })
    }
  }

  it('rejects a token without the Bearer scheme', async () => {
    const { sandbox } = harness()
    for (const authorization of [
      TOKENS.test[0] as string,
      `Basic ${TOKENS.test[0]}`,
      'Bearer',
      'Bearer a b',
    ]) {
      const response = await sandbox.app.request('/test/leads/autoInsurance/issuers', {
        headers: headers('test', { authorization }),
      })
      expect(response.status, authorization).toBe(401)
    }
  })

  it('accepts the scheme in any case, as HTTP auth schemes are case-insensitive', async () => {
    const { sandbox } = harness()
    const response = await sandbox.app.request('/test/leads/autoInsurance/issuers', {
      headers: headers('test', { authorization: `bearer ${TOKENS.test[0]}` }),
    })
    expect(response.status).toBe(200)
  })

  it('defaults to SANDBOX_DEFAULT_TOKENS from src/sandbox/types.ts', async () => {
    const sandbox = createSandbox()
    const ok = await sandbox.app.request('/production/leads/autoInsurance/issuers', {
      headers: headers('production', { authorization: `Bearer ${SANDBOX_DEFAULT_TOKENS.production}` }),
    })
    expect(ok.status).toBe(200)
    const wrong = await sandbox.app.request('/test/leads/autoInsurance/issuers', {
      headers: headers('test', { authorization: `Bearer ${SANDBOX_DEFAULT_TOKENS.production}` }),
    })
    expect(wrong.status).toBe(401)
  })

  it('accepts several tokens per environment', async () => {
    const sandbox = createSandbox({ tokens: { test: ['first-token', 'second-token'], production: [] } })
    for (const token of ['first-token', 'second-token']) {
      const response = await sandbox.app.request('/test/leads/autoInsurance/issuers', {
        headers: headers('test', { authorization: `Bearer ${token}` }),
      })
      expect(response.status).toBe(200)
    }
  })

  it('refuses a token listed in both environments ("Test and production tokens are separate")', () => {
    expect(() => createSandbox({ tokens: { test: ['same-token'], production: ['same-token'] } })).toThrow(
      /both test and production/,
    )
  })

  it('checks the token before anything else: no Api-Version and no token is a 401, not a 400', async () => {
    const { sandbox } = harness()
    const response = await sandbox.app.request('/test/offerSearches/', { method: 'POST', body: '{' })
    expect(response.status).toBe(401)
  })
})
