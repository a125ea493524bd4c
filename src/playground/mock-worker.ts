/**
 * @module The msw service worker behind the stories: the same scenario handlers the widget tests use,
 * swapped per story. Started once, on first use, in either mode; unhandled requests go to the network.
 */
import { type SetupWorker, setupWorker } from 'msw/browser'
import { assetHandlers, type ScenarioName, scenarios } from './scenarios/handlers.ts'

let started: Promise<SetupWorker> | undefined

function worker(): Promise<SetupWorker> {
  started ??= (async () => {
    const w = setupWorker()
    await w.start({
      serviceWorker: { url: '/mockServiceWorker.js' },
      onUnhandledRequest: 'bypass',
      quiet: true,
    })
    return w
  })()
  return started
}

/** Runs `scenario` in the worker (a fresh fake BFF, so each story starts from zero). */
export async function runScenario(scenario: ScenarioName): Promise<void> {
  const w = await worker()
  w.resetHandlers()
  w.use(...scenarios[scenario].create().handlers, ...assetHandlers)
}

/**
 * Real BFF mode: the worker runs with no handlers, so every request goes to the network. It must run even
 * so: msw's worker hands a request from a frame that has not started it to another tab's frame that has,
 * and a BFF-mode preview would get the msw answers of a playground open elsewhere.
 */
export async function passThrough(): Promise<void> {
  const w = await worker()
  w.resetHandlers()
}
