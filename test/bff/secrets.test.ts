/**
 * @module The API token never leaves the server: not in an answer (status, headers, body), not in a log
 * line, not in a built file. A full flow runs, faults included, and everything it produced is scanned.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { postJson, sandboxHarness } from './support/harness.ts'

const TOKEN = 'zz-secret-engine-token-4c1d9e77'

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? filesUnder(path) : [path]
    })
  } catch {
    return []
  }
}

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

  it('appears in no built file, and no browser build reads the server environment', () => {
    const dist = join(import.meta.dirname, '../../dist')
    const files = filesUnder(dist)
    if (files.length === 0)
      console.warn('secrets.test.ts: dist/ is empty (run npm run build); nothing to scan')
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN)
    // What browsers load (and the widget package's code); dist/server is the server, which reads them.
    const browser = ['site', 'widget', 'embed', 'types', 'pack/widget/dist', 'pack/widget/embed'].flatMap(
      (dir) => filesUnder(join(dist, dir)),
    )
    for (const file of browser) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/ENGINE_TOKEN|SESSION_SECRET/)
    }
  })
})
