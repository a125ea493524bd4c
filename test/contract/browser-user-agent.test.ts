/**
 * @module The server route's "visitor's browser user agent" predicate on the agents the hand-written list
 * passed (scripts, crawlers, headless browsers, a curl dressed as Mozilla) and on real browsers.
 */
import { describe, expect, it } from 'vitest'
import { isBrowserLikeUserAgent, visitorSchema } from '../../src/contract/server-search.ts'

const NOT_BROWSERS = [
  'python-requests/2.31',
  'Scrapy/2.11 (+https://scrapy.org)',
  'HeadlessChrome/120',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 curl/8.5.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Wget/1.21.4',
  'PostmanRuntime/7.36.0',
  'axios/1.7.2',
  'node',
]
const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
]

describe('the visitor user agent of server-created searches', () => {
  it.each(NOT_BROWSERS)('refuses %s', (userAgent) => {
    expect(isBrowserLikeUserAgent(userAgent)).toBe(false)
    const parsed = visitorSchema.safeParse({ ipAddress: '203.0.113.7', userAgent })
    expect(parsed.error?.issues[0]?.path).toEqual(['userAgent'])
  })

  it.each(BROWSERS)('accepts %s', (userAgent) => {
    expect(isBrowserLikeUserAgent(userAgent)).toBe(true)
  })

  it('refuses control and non-ASCII characters', () => {
    expect(isBrowserLikeUserAgent(`${BROWSERS[0]}\n`)).toBe(false)
    expect(isBrowserLikeUserAgent(`${BROWSERS[0]} é`)).toBe(false)
  })
})
