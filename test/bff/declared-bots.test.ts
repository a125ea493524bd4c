/**
 * @module Declared bots (isbot: crawlers, HTTP libraries, headless browsers) run no billed search: `POST
 * /api/offer-searches` answers them 403 and the upstream receives nothing; a visitor's browser still searches,
 * an in-app browser whose app appends its HTTP library's token included.
 * In sandbox mode nothing is billed and nothing is refused.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { bffErrorSchema } from '../../src/contract/bff.ts'
import { CREATED_UUID, fakeHarness } from './support/fake-harness.ts'
import { rateTable, startFakeUpstream } from './support/fake-upstream.ts'
import { buildHarness, postJson, WIDGET } from './support/harness.ts'

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'
// Real in-app browsers: an Android app's WebView whose app appends its HTTP library (isbot alone flags it).
const ANDROID_WEBVIEW =
  'Mozilla/5.0 (Linux; Android 13; SM-S908B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36'
const IN_APP_BROWSERS = [
  `${ANDROID_WEBVIEW} okhttp/4.9.2`,
  `${ANDROID_WEBVIEW} okhttp/3.12.13 cronet/120.0.6099.144`,
]
const BOTS = [
  // The WebView's shape does not excuse a bot's own token, nor a library alone.
  `${ANDROID_WEBVIEW} Googlebot/2.1`,
  'okhttp/4.9.2',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'curl/8.5.0',
  'python-requests/2.31.0',
]
const search = (userAgent: string) =>
  postJson({ personalInformation: { zipCode: '94107' } }, { ...WIDGET, 'user-agent': userAgent })

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

describe('POST /api/offer-searches from a declared bot', () => {
  it.each(BOTS)('answers 403 naming the reason, and sends nothing upstream: %s', async (bot) => {
    const h = await fakeHarness()
    close = h.close
    const res = await h.request('/api/offer-searches', search(bot))
    expect(res.status).toBe(403)
    const error = bffErrorSchema.parse(await res.json())
    expect(error.code).toBe('forbidden')
    expect(error.message).toMatch(/Declared bots do not run offer searches.*billed/)
    expect(h.upstream.requests.filter((r) => r.method === 'POST')).toEqual([])
  })

  it.each([FIREFOX, ...IN_APP_BROWSERS])('still searches for a visitor’s browser: %s', async (browser) => {
    const h = await fakeHarness()
    close = h.close
    const res = await h.request('/api/offer-searches', search(browser))
    expect(res.status).toBe(201)
    const sent = h.upstream.requests.filter((r) => r.method === 'POST')
    expect(sent).toHaveLength(1)
    expect(JSON.parse(sent[0]?.body ?? '{}').sessionInformation.userAgent).toBe(browser)
  })

  it('refuses nothing in sandbox mode, where no search is billed', async () => {
    const upstream = await startFakeUpstream()
    upstream.fallback = () => ({ status: 201, body: rateTable(CREATED_UUID, 1) })
    const h = buildHarness({}, { upstreamBaseUrl: upstream.url, rateLimit: false })
    close = async () => {
      await h.close()
      await upstream.close()
    }
    expect(h.config.sandboxMode).toBe(true)
    expect((await h.request('/api/offer-searches', search('curl/8.5.0'))).status).toBe(201)
    expect(upstream.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })
})
