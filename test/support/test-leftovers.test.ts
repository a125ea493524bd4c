/**
 * @module The shared setup's checks themselves: an unhandled msw request and a React act() warning each fail
 * the test that left them, naming what to fix, and a test that leaves neither passes.
 */
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { assertNoLeftovers, failOnUnhandledRequest } from './test-leftovers.ts'

describe('test leftovers', () => {
  const server = setupServer(http.get('http://api.test/handled', () => HttpResponse.json({ ok: true })))
  afterEach(() => {
    server.close()
    vi.restoreAllMocks()
  })

  it('an unhandled msw request rejects its fetch and fails the test, naming the request', async () => {
    server.listen({ onUnhandledRequest: failOnUnhandledRequest })
    vi.spyOn(console, 'error').mockImplementation(() => {}) // msw's own print of it
    expect((await fetch('http://api.test/handled')).ok).toBe(true)
    expect(assertNoLeftovers).not.toThrow()
    // Code under test that swallows the rejection would hide it from the test; the record does not.
    await fetch('http://api.test/unhandled?x=1', { method: 'POST' }).catch(() => undefined)
    expect(assertNoLeftovers).toThrow('no request handler answered POST http://api.test/unhandled?x=1')
    expect(assertNoLeftovers).not.toThrow()
  })

  it("React's act() warnings fail the test, named by their first line", () => {
    console.error(
      'Warning: An update to %s inside a test was not wrapped in act(...).\n\nWhen testing…',
      'Root',
    )
    console.error('The current testing environment is not configured to support act(...)')
    expect(assertNoLeftovers).toThrow(
      /^React: An update to Root inside a test was not wrapped in act\(\.\.\.\)\. Await .*\nReact: The current testing environment is not configured to support act/,
    )
    expect(assertNoLeftovers).not.toThrow()
  })
})
