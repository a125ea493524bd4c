/**
 * @module `renderWidgetHtml` on the server (no DOM): a declarative shadow root with the widget's stylesheet,
 * the first offers, their pixels as image tags, and options as JSON that cannot break out of its `<script>`.
 */
import { expect, test } from 'vitest'
import type { RateTable } from '../../src/contract/rate-table.ts'
import { makeOffer } from '../../src/playground/scenarios/fixtures.ts'
import { renderWidgetHtml } from '../../src/ssr/render-widget-html.tsx'

const offer = makeOffer({ rank: 1, financialInstitutionDisplayName: 'Early Mutual' })
const rateTable: RateTable = {
  uuid: '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6',
  leadUuid: '5d0f8a3e-1b2c-4d5e-8f90-a1b2c3d4e5f7',
  createdAt: '2026-11-22T12:00:00.000Z',
  offers: [offer],
  pendingResponses: [],
}
const attach = { uuid: rateTable.uuid, accessToken: 'token', rateTable }

test('a mount point with a declarative open shadow root holding styles, the offer and its pixels', () => {
  const html = renderWidgetHtml({ endpoint: 'https://bff.example', attach, id: 'quotes', nonce: 'n0nce' })
  expect(typeof document).toBe('undefined')
  expect(html).toMatch(
    /^<div data-offer-widget id="quotes"><template shadowrootmode="open"><style nonce="n0nce">/,
  )
  expect(html).toContain(':host{display:block}')
  expect(html).toContain('<div class="ow-embed"><div class="ow-root"')
  expect(html).toContain('Early Mutual')
  for (const url of offer.impressionTrackingPixelUrls ?? []) expect(html).toContain(`<img src="${url}"`)
  expect(html).not.toContain(`rel="preload"`)
  const state = /<script type="application\/json" data-ow-state>(.*?)<\/script>/.exec(html)?.[1] ?? ''
  expect(JSON.parse(state)).toEqual({ endpoint: 'https://bff.example', attach })
  expect(html.endsWith('</template></div>')).toBe(true)
})

test('partner text cannot close the state script or the template', () => {
  const hostile = makeOffer({ rank: 1, headline: '</script><script>alert(1)</script></template>' })
  const html = renderWidgetHtml({ attach: { ...attach, rateTable: { ...rateTable, offers: [hostile] } } })
  expect(html.match(/<\/script>/g)).toHaveLength(1)
  expect(html.match(/<\/template>/g)).toHaveLength(1)
  expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)')
})

test('the id and nonce are attribute-escaped', () => {
  const html = renderWidgetHtml({ attach, id: '"><img src=x onerror=alert(1)>', nonce: '"x' })
  expect(html).not.toContain('<img src=x')
  expect(html).toContain('id="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"')
})
