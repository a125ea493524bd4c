/**
 * @module A search created on the publisher's server, with the rate table its create answered: the widget
 * renders its offers and their impression pixels (as `<img>` tags) in the server HTML, hydrates that HTML
 * without a mismatch, fires none of those pixels again, and polls on so later offers appear and fire once.
 */
import { act } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { expect, test, vi } from 'vitest'
import { OfferWidget } from '../../src/widget/index.ts'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { early, late, serverCreatedSearch } from './support/server-created.ts'
import { advance, ENDPOINT, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

test('the server HTML carries the first offers and their pixels as image tags', async () => {
  const { attach } = await serverCreatedSearch()
  const html = renderToString(<OfferWidget endpoint={ENDPOINT} attach={attach} />)
  expect(html).toContain('Early Mutual')
  expect(html).not.toContain('Late Casualty')
  for (const url of early.impressionTrackingPixelUrls ?? []) expect(html).toContain(`src="${url}"`)
  expect(html.match(/<img[^>]+src="[^"]*\/pixels\//g)).toHaveLength(
    early.impressionTrackingPixelUrls?.length ?? 0,
  )
})

test('preview renders the offers without pixel tags', async () => {
  const { attach } = await serverCreatedSearch()
  const html = renderToString(<OfferWidget endpoint={ENDPOINT} attach={attach} preview />)
  expect(html).toContain('Early Mutual')
  expect(html).not.toContain('/pixels/')
})

test('hydrates without a mismatch, fires no rendered pixel again, and polls on to the later offer', async () => {
  const { bff, attach } = await serverCreatedSearch()
  const fired: string[] = []
  const tracker = createPixelTracker((url) => fired.push(url))
  const element = <OfferWidget endpoint={ENDPOINT} attach={attach} pixelTracker={tracker} />
  const container = document.createElement('div')
  container.innerHTML = renderToString(element)
  document.body.append(container)
  const serverImages = [...container.querySelectorAll('img[src*="/pixels/"]')]
  const errors = vi.spyOn(console, 'error')
  const recoverable = vi.fn()
  let root: ReturnType<typeof hydrateRoot> | undefined
  await act(async () => {
    root = hydrateRoot(container, element, { onRecoverableError: recoverable })
  })
  expect(recoverable).not.toHaveBeenCalled()
  expect(errors).not.toHaveBeenCalled()
  // The very elements the server sent are kept (not re-created, so not requested again).
  expect([...container.querySelectorAll('img[src*="/pixels/"]')]).toEqual(serverImages)
  expect(fired).toEqual([])
  expect(bff.log.creates).toHaveLength(1)

  await advance(3000)
  expect(bff.log.polls.length).toBeGreaterThan(0)
  expect(container.textContent).toContain('Late Casualty')
  expect(fired).toEqual(late.impressionTrackingPixelUrls)
  expect([...container.querySelectorAll('img[src*="/pixels/"]')]).toEqual(serverImages)
  act(() => root?.unmount())
  container.remove()
  errors.mockRestore()
})
