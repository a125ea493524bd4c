/**
 * @module The API token never leaves the server: not in an answer (status, headers, body), not in a log
 * line. A full flow runs, faults included, and everything it produced is scanned. Browser builds are scanned
 * in test/package/build-secrets.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { postJson, sandboxHarness } from './support/harness.ts'

const TOKEN = 'zz-secret-engine-token-4c1d9e77'

describe('the API token', () => {
  it('appears in no answer and no log line of a whole flow, errors included', async () => {
    const h = await sandboxHarness(TOKEN, { ALLOWED_ORIGINS: 'https://publisher.example' })
    await h.request('/api/issuers')
    const created = createdSearchSchema.parse(
      await (
        await h.request('/api/offer-searches', postJson({ personalInformation: { zipCode: '00001' } }))
      ).json(),
    )
    await h.request(`/api/offer-searches/${created.rateTable.uuid}`, {
      headers: { 'x-offer-access-token': created.accessToken },
    })
    await h.request('/api/offer-searches', postJson({ personalInformation: { zipCode: 'bad' } }))
    await h.request('/api/offer-searches/not-a-uuid')
    await h.request('/readyz')
    await h.request('/metrics')
    await h.close()

    // The same sandbox refusing the token: the 401 path logs loudly, and must still not print it.
    const refused = await sandboxHarness('some-other-valid-token')
    const wrong = await sandboxHarness(TOKEN, { ENGINE_BASE_URL_TEST: `${refused.sandboxUrl}/test` })
    await wrong.request('/api/issuers')
    await wrong.request('/api/offer-searches', postJson({}))
    await wrong.request('/readyz')
    await wrong.close()
    await refused.close()

    const everything = [...h.answers, ...h.logs, ...wrong.answers, ...wrong.logs].join('\n')
    expect(h.answers.length).toBeGreaterThan(5)
    expect(wrong.logs.join('')).toMatch(/ENGINE_TOKEN/)
    expect(everything).not.toContain(TOKEN)
    expect(everything).not.toMatch(/Bearer /)
  })
})
