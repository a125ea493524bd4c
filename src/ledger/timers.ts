/**
 * @module The shared timers (`src/timers.ts`) under their former path, for `write-batch.ts` only while
 * another change reworks that file (#16); everything else imports `../timers.ts`. Remove with that change.
 */
export { sleepOn, systemTimers, type TimerHandle, type Timers } from '../timers.ts'
