/**
 * @module Entry of the preview frame: installs the frame's clock first, then loads everything else, so
 * React, the widget, query-core and the msw fake BFF all take their timers and `Date` from that clock, and
 * counts fetches in flight so that moving the clock waits for their answers.
 */
import { installFrameClock } from './frame-clock.ts'
import { trackFetches } from './network-idle.ts'
import './frame.css'

const clock = installFrameClock(window)
const network = trackFetches(window)
import('./run-frame.ts')
  .then(({ runFrame }) => runFrame(clock, network))
  .catch((error: unknown) => {
    document.body.textContent = `The preview frame failed to start: ${String(error)}`
  })
