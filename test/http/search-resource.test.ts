/**
 * @module The search resource both engines stand behind (the offer search and the second look): the order
 * of its guards, the visitor it hands the engine, its 201 envelope, and a poll guard that discloses nothing
 * about searches it won't show; and `searchApiRoutes`, which mounts a search with routes of its own (the
 * second look's) with the host's guards. The engines' own behaviour is in test/bff and test/marketplace.
 */
import { Hono } from 'hono'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { ACCESS_TOKEN_HEADER } from '../../src/contract/bff.ts'
import { createAccessTokens } from '../../src/http/access-token.ts'
import { httpError, onHttpError } from '../../src/http/errors.ts'
import {
  type SearchApi,
  type SearchEngine,
  searchApiRoutes,
  searchResource,
} from '../../src/http/search-resource.ts'

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e'
const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7'
const tokens = createAccessTokens('a-secret-of-at-least-32-characters!!')
const VISITOR = { ipAddress: '198.51.100.4', userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile' }
const BROWSER = { 'content-type': 'application/json', 'user-agent': VISITOR.userAgent }

function testEngine(steps: string[], engine: Partial<SearchEngine> = {}): SearchEngine {
  return {
    noun: 'test search',
    bodyLimitBytes: 64,
    refusedToBots: 'run test searches',
    create: async (_c, visitor) => {
      steps.push(`create for ${visitor().ipAddress}`)
      return { searchUuid: UUID, rateTable: '{"uuid":"x","offers":[]}', headers: { 'x-engine': 'yes' } }
    },
    poll: async (uuid) => (uuid === UUID ? { uuid, offers: [] } : undefined),
    ...engine,
  }
}

function host(steps: string[]) {
  return {
    accessTokens: tokens,
    identity: () => VISITOR,
    refuseBots: true,
    guards: [
      async (_c: unknown, next: () => Promise<void>) => {
        steps.push('guard')
        await next()
      },
    ],
  }
}

function withErrors(app: Hono): Hono {
  app.onError(onHttpError(pino({ level: 'silent' })))
  return app
}

function mounted(engine: Partial<SearchEngine>, steps: string[] = []) {
  return withErrors(new Hono().route('/s', searchResource(testEngine(steps, engine), host(steps))))
}

const post = (app: Hono, body: string, headers: Record<string, string> = BROWSER) =>
  app.request('/s', { method: 'POST', body, headers })

describe('searchResource', () => {
  it("answers 201 with a token for the new uuid around the engine's rate table, after the guards, for the visitor", async () => {
    const steps: string[] = []
    const res = await post(mounted({}, steps), '{}')
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('x-engine')).toBe('yes')
    const body = (await res.json()) as { accessToken: string; rateTable: unknown }
    expect(Object.keys(body)).toEqual(['accessToken', 'rateTable'])
    expect(tokens.verify(body.accessToken, UUID)).toBe(true)
    expect(body.rateTable).toEqual({ uuid: 'x', offers: [] })
    expect(steps).toEqual(['guard', `create for ${VISITOR.ipAddress}`])
  })

  it('refuses a declared bot with 403 before any guard runs, naming what it may not do', async () => {
    const steps: string[] = []
    const res = await post(mounted({}, steps), '{}', {
      'content-type': 'application/json',
      'user-agent': 'curl/8.5.0',
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('run test searches'),
    })
    expect(steps).toEqual([])
  })

  it('serialises a rate table given as a value', async () => {
    const app = mounted({ create: async () => ({ searchUuid: UUID, rateTable: { uuid: UUID, offers: [] } }) })
    const body = (await (await post(app, '{}')).json()) as { rateTable: unknown }
    expect(body.rateTable).toEqual({ uuid: UUID, offers: [] })
  })

  it('refuses a body over its bound before any guard runs', async () => {
    const steps: string[] = []
    const res = await post(mounted({}, steps), JSON.stringify({ pad: 'x'.repeat(100) }))
    expect(res.status).toBe(413)
    expect(steps).toEqual([])
  })

  it("passes the engine's refusal through as it is", async () => {
    const app = mounted({
      create: async () => {
        throw httpError(503, 'shutting_down', 'Send it again')
      },
    })
    const res = await post(app, '{}')
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ code: 'shutting_down', message: 'Send it again' })
  })

  it('answers a poll with its token with the rate table, no-store', async () => {
    const res = await mounted({}).request(`/s/${UUID}`, {
      headers: { [ACCESS_TOKEN_HEADER]: tokens.issue(UUID) },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.json()).toEqual({ uuid: UUID, offers: [] })
  })

  it('answers a missing token, another search token and an unknown search alike: 404', async () => {
    const app = mounted({})
    const answers = await Promise.all([
      app.request(`/s/${UUID}`),
      app.request(`/s/${UUID}`, { headers: { [ACCESS_TOKEN_HEADER]: tokens.issue(OTHER) } }),
      app.request(`/s/${OTHER}`, { headers: { [ACCESS_TOKEN_HEADER]: tokens.issue(OTHER) } }),
    ])
    for (const res of answers) {
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ code: 'not_found', message: 'No such test search' })
    }
  })

  it('answers a path that is not a uuid with a 400 naming the field', async () => {
    const res = await mounted({}).request('/s/not-a-uuid')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ errors: [{ field: 'uuid' }] })
  })
})

describe('searchApiRoutes', () => {
  const routes = (steps: string[]): SearchApi => ({
    searchPath: '/s',
    engine: testEngine(steps),
    routes: () => [
      { path: '/s/consent', app: new Hono().get('/', (c) => c.text('texts')) },
      { path: '/reports', app: new Hono().get('/', (c) => c.text('report')), bearer: true },
    ],
  })
  function api(steps: string[]) {
    return withErrors(
      searchApiRoutes(routes(steps), {
        ...host(steps),
        bearerGuards: [
          async (_c, next) => {
            steps.push('bearer guard')
            await next()
          },
        ],
      }),
    )
  }

  it("mounts the engine's routes before its search, so a path under the search is not read as a uuid", async () => {
    const steps: string[] = []
    const res = await api(steps).request('/s/consent')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('texts')
    expect(steps).toEqual([])
  })

  it("runs the host's bearer guards before bearer routes only, and its search guards before the search only", async () => {
    const steps: string[] = []
    const app = api(steps)
    expect(await (await app.request('/reports')).text()).toBe('report')
    expect(steps).toEqual(['bearer guard'])
    steps.length = 0
    expect((await post(app, '{}')).status).toBe(201)
    expect(steps).toEqual(['guard', `create for ${VISITOR.ipAddress}`])
  })
})
