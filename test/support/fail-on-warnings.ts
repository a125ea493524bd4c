/**
 * @module Every test file's setup (vitest `setupFiles`): a test fails when it leaves an unhandled msw request
 * or a React `act()` warning behind (`test-leftovers.ts`) instead of passing while they print.
 */
import { afterAll, afterEach } from 'vitest'
import { assertNoLeftovers, watchActWarnings } from './test-leftovers.ts'

watchActWarnings()
// Registered before any test file's hooks, so these run after them (vitest runs after-hooks in reverse):
// what the file's own cleanup (unmount, timers) sets off is caught too.
afterEach(assertNoLeftovers)
afterAll(assertNoLeftovers)
