/**
 * @module The built server (`startTestServer`) and a browser for a browser-test file: started before the
 * file's tests, after checking the build is there, and closed after them.
 */

import { afterAll, beforeAll } from 'vitest'
import type { RunningServer } from '../../../src/server/start-server.ts'
import { type Browser, launchBrowser } from './browser.ts'
import { requireBuild, startTestServer } from './server.ts'

export interface ServerAndBrowser {
  server: RunningServer
  browser: Browser
}

/** Call at the top of a file; read `server` and `browser` in its tests (they are set before them). */
export function serverAndBrowserAround(): ServerAndBrowser {
  const started = {} as ServerAndBrowser
  beforeAll(async () => {
    requireBuild()
    started.server = await startTestServer()
    started.browser = await launchBrowser()
  })
  afterAll(async () => {
    await started.browser?.close()
    await started.server?.close()
  })
  return started
}
