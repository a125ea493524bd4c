/**
 * @module The msw service worker behind the stories: the same scenario handlers the widget tests use,
 * swapped per story. Started once, on first use; unhandled requests go to the network.
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

/** Real BFF mode: the worker, if running, lets everything through. */
export async function passThrough(): Promise<void> {
  if (!started) return
  ;(await started).resetHandlers()
}
