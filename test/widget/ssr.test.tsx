// @vitest-environment node
/**
 * @module Server rendering: the package imports with no `window`, renders a placeholder, and sends no
 * request from the server.
 */
import { renderToString } from 'react-dom/server'
import { expect, test, vi } from 'vitest'

test('imports without window and renders a placeholder on the server', async () => {
  expect(typeof window).toBe('undefined')
  const fetchSpy = vi.spyOn(globalThis, 'fetch')
  const { OfferWidget } = await import('../../src/widget/index.ts')
  const html = renderToString(
    <OfferWidget
      endpoint="https://bff.example"
      search={{ zipCode: '94107' }}
      theme="dark"
      labels={{ loading: 'Un instant…' }}
    />,
  )
  expect(html).toContain('class="ow-root"')
  expect(html).toContain('data-ow-theme="dark"')
  expect(html).toContain('aria-busy="true"')
  expect(html).toContain('Un instant…')
  expect(fetchSpy).not.toHaveBeenCalled()
  fetchSpy.mockRestore()
})
