/**
 * @module The `201` of `POST /api/offer-searches` carries the upstream's rate table text as it came, once
 * it has parsed and passed the contract: fields the contract does not name survive, nothing else is
 * added, and a body that fails the contract never reaches the widget.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { createdSearchJson } from '../../src/http/search-resource.ts'
import { CREATED_UUID, fakeHarness } from './support/fake-harness.ts'
import { rateTable } from './support/fake-upstream.ts'
import { postJson } from './support/harness.ts'

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function create(step: { status: number; raw: string }) {
  const h = await fakeHarness()
  close = h.close
  h.upstream.script(step)
  const res = await h.request('/api/offer-searches', postJson({}))
  return { status: res.status, headers: res.headers, text: await res.text() }
}

describe('POST /api/offer-searches answer', () => {
  it('embeds the validated upstream text verbatim, unknown fields included, with a token for its uuid', async () => {
    const raw = JSON.stringify({ ...rateTable(CREATED_UUID, 1), upstreamExtra: { score: 0.1 } }, null, 1)
    const res = await create({ status: 201, raw })
    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.text).toContain(raw)
    const created = createdSearchSchema.parse(JSON.parse(res.text))
    expect(created.rateTable).toEqual(JSON.parse(raw))
    expect(Object.keys(JSON.parse(res.text)).sort()).toEqual(['accessToken', 'rateTable'])
    expect(created.accessToken.length).toBeGreaterThan(0)
  })

  it('never forwards a body that fails the contract: 502, and none of its text in the answer', async () => {
    const raw = JSON.stringify({ ...rateTable(CREATED_UUID), createdAt: 'yesterday', marker: 'leak-me' })
    const res = await create({ status: 201, raw })
    expect(res.status).toBe(502)
    expect(res.text).not.toContain('leak-me')
  })

  it('never forwards a body that is not JSON', async () => {
    const res = await create({ status: 201, raw: `${JSON.stringify(rateTable(CREATED_UUID))},"leak-me"` })
    expect(res.status).toBe(502)
    expect(res.text).not.toContain('leak-me')
  })
})

describe('createdSearchJson', () => {
  it('escapes the token as a JSON string', () => {
    const text = createdSearchJson('a"b\\c', JSON.stringify(rateTable(CREATED_UUID)))
    expect(JSON.parse(text).accessToken).toBe('a"b\\c')
  })
})
