/**
 * The widget on a bare `createRoot`, without Testing Library, so it runs on whichever React the project
 * resolves: React 19 in the `dom` project, React 18 in `react18` (vitest.config.ts aliases `react` and
 * `react-dom` there). The issue asks for both; this is the proof for 18.
 */
import { act, createElement, StrictMode, version } from 'react'
import { createRoot } from 'react-dom/client'
import { expect, test, vi } from 'vitest'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { OfferWidget } from '../../src/widget/index.ts'
import { createPixelTracker } from '../../src/widget/pixel-tracker.ts'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()

test('runs on the React major its project asks for', () => {
  expect(version.split('.')[0]).toBe(process.env.EXPECTED_REACT_MAJOR)
})

test(`one POST, live offers by rank and each pixel once, under StrictMode (React ${version})`, async () => {
  const bff = scenarios.happyPath.create()
  server.use(...bff.handlers)
  const fire = vi.fn()
  const host = document.createElement('div')
  document.body.append(host)
  const root = createRoot(host)
  const widget = createElement(OfferWidget, {
    endpoint: ENDPOINT,
    search: { zipCode: '94107' },
    pixelTracker: createPixelTracker(fire),
  })
  await act(async () => root.render(createElement(StrictMode, null, widget)))
  await advance(4000)

  expect(bff.log.creates).toHaveLength(1)
  const cards = [...host.querySelectorAll<HTMLElement>('.ow-card')]
  expect(cards.length).toBeGreaterThan(0)
  expect(host.querySelector('[data-ow-status="complete"]')).not.toBeNull()
  const fired = fire.mock.calls.map(([url]) => String(url))
  expect(fired.length).toBeGreaterThan(0)
  expect(new Set(fired).size).toBe(fired.length)

  await act(async () => root.unmount())
  host.remove()
})
