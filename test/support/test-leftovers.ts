/**
 * @module What a test can leave behind that must fail it, though it only prints: an msw request no handler
 * answered, and a React `act()` warning. Recorded here; `fail-on-warnings.ts` (every file's setup) checks
 * after each test. msw's `'error'` alone only prints and rejects the fetch, which code under test may catch
 * (a retry, a fallback); an act() warning means the test looked at a screen React had not finished updating.
 */
import { format } from 'node:util'

const ACT_WARNING = /not wrapped in act\(|environment is not configured to support act\(/

const leftovers: string[] = []
// Marks the watching console.error, so a second call does not wrap it again.
const WATCHING = Symbol('watching act() warnings')

/** msw's `onUnhandledRequest` for every test server: fails the fetch as `'error'` does, and records it. */
export function failOnUnhandledRequest(request: Request, print: { error(): void }): void {
  leftovers.push(
    `msw: no request handler answered ${request.method} ${request.url}; add one (server.use) or stop the request`,
  )
  print.error()
}

/** Records React's act() warnings instead of printing them; every other console.error prints as before. */
export function watchActWarnings(): void {
  const consoleError = console.error
  if (WATCHING in consoleError) return
  const watching = (...args: unknown[]) => {
    const text = format(...args)
    if (!ACT_WARNING.test(text)) return consoleError.apply(console, args)
    const first = text.split('\n')[0]?.replace(/^Warning: /, '')
    leftovers.push(`React: ${first} Await the update (advance(), findBy*, await act(...)).`)
  }
  console.error = Object.assign(watching, { [WATCHING]: true })
}

/** Throws naming everything left behind since the last call, and starts again with nothing. */
export function assertNoLeftovers(): void {
  const found = leftovers.splice(0)
  if (found.length > 0) throw new Error(found.join('\n'))
}
