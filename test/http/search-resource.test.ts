/**
 * @module The search resource both engines stand behind (the offer search and the second look): the order
 * of its guards, its 201 envelope, and a poll guard that discloses nothing about searches it won't show.
 * The engines' own behaviour is in test/bff and test/marketplace, through their routes.
 */
import { Hono } from 'hono'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { ACCESS_TOKEN_HEADER } from '../../src/contract/bff.ts'
import { createAccessTokens } from '../../src/http/access-token.ts'
import { httpError, onHttpError } from '../../src/http/errors.ts'
import { type SearchEngine, searchResource } from '../../src/http/search-resource.ts'

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e'
const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7'
const tokens = createAccessTokens('a-secret-of-at-least-32-characters!!')

function mounted(engine: Partial<SearchEngine>, steps: string[] = []) {
  const full: SearchEngine = {
    noun: 'test search',
    create: async () => {
      steps.push('create')
      return { searchUuid: UUID, rateTable: '{"uuid":"x","offers":[]}', headers: { 'x-engine': 'yes' } }
    },
    poll: async (uuid) => (uuid === UUID ? { uuid, offers: [] } : undefined),
    ...engine,
  }
  const app = new Hono()
  app.onError(onHttpError(pino({ level: 'silent' })))
  app.route(
    '/s',
    searchResource(full, {
      accessTokens: tokens,
      bodyLimitBytes: 64,
      guards: [
        async (_c, next) => {
          steps.push('guard')
          await next()
        },
      ],
    }),
  )
  return app
}

const post = (app: Hono, body: string) =>
  app.request('/s', { method: 'POST', body, headers: { 'content-type': 'application/json' } })

describe('searchResource', () => {
  it('answers 201 with a token for the new uuid around the engine rate table, after the guards', async () => {
    const steps: string[] = []
    const res = await post(mounted({}, steps), '{}')
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('x-engine')).toBe('yes')
    const body = (await res.json()) as { accessToken: string; rateTable: unknown }
    expect(Object.keys(body)).toEqual(['accessToken', 'rateTable'])
    expect(tokens.verify(body.accessToken, UUID)).toBe(true)
    expect(body.rateTable).toEqual({ uuid: 'x', offers: [] })
    expect(steps).toEqual(['guard', 'create'])
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
