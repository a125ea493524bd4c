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
      now: () => new Date('2010-01-01'),
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
