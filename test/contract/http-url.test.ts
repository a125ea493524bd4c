/**
 * @module The one absolute-http(s)-URL predicate, through its callers: the widget's link gate and the advertiser
 * disclosure link, which went through no check (a `data:text/html,...` value rendered as a link in server HTML).
 */
import { describe, expect, it } from 'vitest'
import { isHttpUrl, safeHttpUrl } from '../../src/contract/http-url.ts'
import type { RateTable } from '../../src/contract/rate-table.ts'
import { makeOffer } from '../../src/playground/scenarios/fixtures.ts'
import { renderWidgetHtml } from '../../src/ssr/render-widget-html.tsx'
import { safeHttpUrl as widgetSafeHttpUrl } from '../../src/widget/safe-url.ts'

describe('absolute http(s) URLs', () => {
  it.each([
    ['https://offers.example.com/a?b=1', 'https://offers.example.com/a?b=1'],
    ['  http://127.0.0.1:4000/x  ', 'http://127.0.0.1:4000/x'],
    ['HTTPS://Example.COM', 'https://example.com/'],
    ['data:text/html,<script>alert(1)</script>', undefined],
    ['javascript:alert(1)', undefined],
    ['  javascript:alert(1)', undefined],
    ['/relative/path', undefined],
    ['//example.com/x', undefined],
    ['ftp://example.com/x', undefined],
    ['', undefined],
    [42, undefined],
  ])('%j -> %j', (raw, href) => {
    expect(safeHttpUrl(raw)).toBe(href)
    expect(isHttpUrl(raw)).toBe(href !== undefined)
    expect(widgetSafeHttpUrl(raw)).toBe(href)
  })
})

describe('the advertiser disclosure link in server HTML', () => {
  const rateTable: RateTable = {
    uuid: '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6',
    leadUuid: '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f7',
    createdAt: '2026-11-22T12:00:00.000Z',
    offers: [makeOffer({ rank: 1 })],
    pendingResponses: [],
  }
  const html = (disclosureUrl: string) =>
    renderWidgetHtml({ attach: { uuid: rateTable.uuid, accessToken: 'token', rateTable }, disclosureUrl })

  it.each(['data:text/html,<script>alert(1)</script>', 'javascript:alert(1)', '/disclosure'])(
    "renders no link for %s: the widget's own disclosure button instead",
    (url) => {
      expect(html(url)).not.toMatch(/<a[^>]*>Advertiser disclosure/)
      expect(html(url)).toMatch(/<button[^>]*>Advertiser disclosure<\/button>/)
      expect(html(url)).not.toMatch(/href="(data|javascript):/)
      expect(html(url)).not.toContain('href="/disclosure"')
    },
  )

  it('links an https disclosure page', () => {
    expect(html('https://example.com/disclosure')).toContain('href="https://example.com/disclosure"')
  })
})
