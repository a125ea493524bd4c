/**
 * @module The script-tag bundle adopting server-rendered markup (`renderWidgetHtml`): it hydrates the
 * declarative shadow root's widget in place (same elements, no mismatch), fires none of the pixels the
 * markup carried, and polls on, so later offers appear and fire once. jsdom does not parse declarative
 * shadow roots, so the test attaches the root the browser would have made from the template (Chromium's own
 * parsing is covered by the SSR demo e2e).
 */
import { act } from 'react'
import { afterEach, expect, test, vi } from 'vitest'
import { createOfferWidgetApi } from '../../src/embed/global-api.ts'
import { readServerRendered } from '../../src/embed/server-rendered.ts'
import { renderWidgetHtml } from '../../src/ssr/render-widget-html.tsx'
import { late, serverCreatedSearch } from '../widget/support/server-created.ts'
import { advance, captureImages, ENDPOINT, setupWidgetTests } from '../widget/support/widget-tests.ts'

setupWidgetTests()
afterEach(() => {
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

/** What a browser makes of the server's HTML: the host element with the template's content as its shadow root. */
function parseLikeABrowser(html: string): HTMLElement {
  const holder = document.createElement('div')
  holder.innerHTML = html
  const host = holder.firstElementChild as HTMLElement
  const template = host.querySelector('template[shadowrootmode="open"]') as HTMLTemplateElement
  template.remove()
  host.attachShadow({ mode: 'open' }).append(template.content.cloneNode(true))
  document.body.append(host)
  return host
}

async function serverRenderedPage() {
  const { bff, attach } = await serverCreatedSearch()
  return { bff, host: parseLikeABrowser(renderWidgetHtml({ endpoint: ENDPOINT, id: 'quotes', attach })) }
}

test('mountAll hydrates the server markup in place, fires no rendered pixel, and polls on', async () => {
  const { bff, host } = await serverRenderedPage()
  const shadow = host.shadowRoot as ShadowRoot
  const card = shadow.querySelector('.ow-card')
  expect(card?.textContent).toContain('Early Mutual')
  const images = captureImages()
  const errors = vi.spyOn(console, 'error')
  const api = createOfferWidgetApi({ defaultEndpoint: 'https://elsewhere.example' })
  act(() => {
    api.mountAll()
  })
  await advance(0)
  expect(errors).not.toHaveBeenCalled()
  // The same elements: hydrated, not replaced.
  expect(shadow.querySelector('.ow-card')).toBe(card)
  expect(shadow.querySelectorAll('.ow-embed')).toHaveLength(1)
  expect(images).toEqual([])
  expect(bff.log.creates).toHaveLength(1)

  await advance(3000)
  expect(bff.log.polls.length).toBeGreaterThan(0)
  // Polled at the endpoint the server rendered with, not the bundle's default.
  expect(bff.log.polls.map((poll) => poll.headers.get('x-offer-access-token'))).not.toContain(null)
  expect(shadow.textContent).toContain('Late Casualty')
  expect(images.map((image) => image.src)).toEqual(late.impressionTrackingPixelUrls)
  errors.mockRestore()
})

test('readServerRendered refuses state whose rate table the widget would not accept', async () => {
  const { host } = await serverRenderedPage()
  const state = host.shadowRoot?.querySelector('script[data-ow-state]') as HTMLScriptElement
  expect(readServerRendered(host)?.options.attach?.uuid).toBeTypeOf('string')
  const parsed = JSON.parse(state.textContent ?? '{}')
  parsed.attach.rateTable.offers = 'not a list'
  state.textContent = JSON.stringify(parsed)
  expect(readServerRendered(host)).toBeUndefined()
  state.textContent = '{not json'
  expect(readServerRendered(host)).toBeUndefined()
})
