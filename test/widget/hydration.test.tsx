/**
 * @module Hydrating server HTML: the first client render matches the placeholder (no mismatch warning),
 * then the widget takes over and searches.
 */
import { act } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { expect, test, vi } from 'vitest'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { OfferWidget } from '../../src/widget/index.ts'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

test('hydrates the server placeholder without a mismatch, then searches', async () => {
  const bff = scenarios.happyPath.create()
  server.use(...bff.handlers)
  const element = (
    <OfferWidget
      endpoint={ENDPOINT}
      search={{ zipCode: '94107' }}
      pixelTracker={createPixelTracker(() => {})}
    />
  )
  const container = document.createElement('div')
  container.innerHTML = renderToString(element)
  document.body.append(container)
  const errors = vi.spyOn(console, 'error')
  const recoverable = vi.fn()
  let root: ReturnType<typeof hydrateRoot> | undefined
  await act(async () => {
    root = hydrateRoot(container, element, { onRecoverableError: recoverable })
  })
  await advance(3000)
  expect(recoverable).not.toHaveBeenCalled()
  expect(errors).not.toHaveBeenCalled()
  expect(bff.log.creates).toHaveLength(1)
  expect(container.querySelectorAll('.ow-card').length).toBeGreaterThan(0)
  act(() => root?.unmount())
  container.remove()
  errors.mockRestore()
})
