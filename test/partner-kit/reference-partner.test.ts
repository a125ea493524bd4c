/**
 * @module The reference partner over HTTP: paths, statuses, body handling, and a real port.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { partnerReplySchema } from '../../src/contract/partner.ts'
import { createReferencePartner } from '../../src/partner-kit/reference-partner.ts'
import { sampleLeads } from '../../src/partner-kit/sample-leads.ts'
import { type RunningPartner, startReferencePartner } from '../../src/partner-kit/start-reference-partner.ts'

const complete = sampleLeads().find((s) => s.id === 'complete')?.lead
const post = (body: string) =>
  ({ method: 'POST', body, headers: { 'content-type': 'application/json' } }) as const

describe('createReferencePartner', () => {
  const app = createReferencePartner({ secret: 'a-test-secret-of-some-length' })

  it.each(['/', '/leads'])(
    'takes leads by POST at %s (docs/partner-interface.md: method and path "not shown")',
    async (path) => {
      const response = await app.request(path, post(JSON.stringify(complete)))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      const reply = partnerReplySchema.parse(await response.json())
      expect(reply.status).toBe('approved')
    },
  )

  it('answers an invalid lead with HTTP 200 and status error: the seed signals failures in the body', async () => {
    const response = await app.request('/leads', post('{"personalInformation":{}}'))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      status: 'error',
      reason: expect.stringContaining('firstName'),
    })
  })

  it('answers a body that is not JSON with status error', async () => {
    const response = await app.request('/leads', post('ssn=123'))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'error', lead_id: expect.stringMatching(/^ref_/) })
  })

  it('refuses a body over 64 KiB with 413 and a JSON error reply', async () => {
    const response = await app.request('/leads', post(JSON.stringify({ pad: 'x'.repeat(70_000) })))
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ status: 'error' })
  })

  it('takes nothing but POST on the lead paths', async () => {
    expect((await app.request('/leads')).status).toBe(404)
    expect((await app.request('/other', post('{}'))).status).toBe(404)
    expect((await app.request('/health')).status).toBe(200)
  })

  it('gives the same lead the same lead_id across requests, another partner another one', async () => {
    const ask = async (partner: typeof app) =>
      ((await (await partner.request('/', post(JSON.stringify(complete)))).json()) as { lead_id: string })
        .lead_id
    expect(await ask(app)).toBe(await ask(app))
    expect(await ask(app)).not.toBe(await ask(createReferencePartner({ secret: 'another-secret-entirely' })))
  })

  it('refuses options it cannot honour, naming them', () => {
    expect(() => createReferencePartner({ secret: 'short' })).toThrow(/secret must be at least 16/)
    expect(() => createReferencePartner({ clickBaseUrl: 'http://insecure.example.com' })).toThrow(
      /clickBaseUrl must be an absolute https URL/,
    )
  })

  it('reads the clock it is given (age rule)', async () => {
    const young = structuredClone(complete)
    if (!young) throw new Error('no sample')
    young.personalInformation.dateOfBirth = '2000-01-01'
    const pinned = createReferencePartner({
      secret: 'a-test-secret-of-some-length',
      timers: { now: () => Date.parse('2010-01-01') },
    })
    expect(await (await pinned.request('/', post(JSON.stringify(young)))).json()).toMatchObject({
      status: 'rejected',
      reason: 'applicant must be 18 or older',
    })
  })
})

describe('startReferencePartner', () => {
  let running: RunningPartner | undefined
  afterEach(async () => {
    await running?.close()
    running = undefined
  })

  it('listens on loopback port 0 and closes', async () => {
    running = await startReferencePartner({ port: 0 })
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const response = await fetch(`${running.url}/leads`, post(JSON.stringify(complete)))
    expect((await response.json()) as unknown).toMatchObject({ status: 'approved' })
    const url = running.url
    await running.close()
    running = undefined
    await expect(fetch(`${url}/health`)).rejects.toThrow()
  })
})

describe('createReferencePartner: a repeat of a lead (docs/partner-interface.md#recognising-a-repeat)', () => {
  const KEY = '6f1c2a4e-8b3d-4c5e-9f10-2a3b4c5d6e7f'
  const OTHER_KEY = '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d'
  let clock = Date.parse('2026-11-26T10:00:00Z')
  const partner = (remembered?: number) =>
    createReferencePartner({
      secret: 'a-test-secret-of-some-length',
      timers: { now: () => clock },
      ...(remembered === undefined ? {} : { rememberedReplies: remembered }),
    })
  const send = (app: ReturnType<typeof partner>, key: string | undefined, body = JSON.stringify(complete)) =>
    app.request('/leads', {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
    })
  const replayed = (response: Response) => response.headers.get('idempotent-replayed') === 'true'

  it('answers the same key and lead with the reply it gave, marked as replayed', async () => {
    const app = partner()
    const first = await send(app, KEY)
    expect(replayed(first)).toBe(false)
    const again = await send(app, KEY)
    expect(again.status).toBe(200)
    expect(replayed(again)).toBe(true)
    expect(await again.json()).toEqual(await first.json())
  })

  it('answers afresh without a key, with a key that is not a UUID, with another key, or another lead', async () => {
    const app = partner()
    await send(app, KEY)
    await send(app, undefined)
    await send(app, 'not-a-uuid')
    expect(replayed(await send(app, undefined))).toBe(false)
    expect(replayed(await send(app, 'not-a-uuid'))).toBe(false)
    expect(replayed(await send(app, OTHER_KEY))).toBe(false)
    const otherLead = sampleLeads().find((s) => s.id !== 'complete')?.lead
    expect(replayed(await send(app, KEY, JSON.stringify(otherLead)))).toBe(false)
  })

  it('forgets a reply after 10 minutes', async () => {
    const app = partner()
    await send(app, KEY)
    clock += 10 * 60_000 - 1
    expect(replayed(await send(app, KEY))).toBe(true)
    clock += 1
    expect(replayed(await send(app, KEY))).toBe(false)
  })

  it('keeps at most rememberedReplies, forgetting the oldest first', async () => {
    const app = partner(2)
    const keys = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', KEY]
    for (const key of keys) await send(app, key)
    expect(replayed(await send(app, keys[0]))).toBe(false)
    // Sending keys[0] again made it the newest, so keys[1] is now the oldest and went.
    expect(replayed(await send(app, KEY))).toBe(true)
    expect(replayed(await send(app, keys[1]))).toBe(false)
  })

  it('refuses a cap that is not a positive whole number', () => {
    expect(() => partner(0)).toThrow(/max must be a positive whole number/)
  })
})
