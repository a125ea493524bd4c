/**
 * @module Turns of the event loop, counted: a macrotask that queues itself again each turn. Tests say "the
 * loop kept turning while X ran" by this count, never by time.
 */

/** Counts turns from now until `stop()`, which returns the count; `onTurn` is told of each. */
export function countLoopTurns(onTurn?: () => void): { stop(): number } {
  let turns = 0
  let running = true
  const spin = () => {
    turns++
    onTurn?.()
    if (running) setImmediate(spin)
  }
  setImmediate(spin)
  return {
    stop() {
      running = false
      return turns
    },
  }
}
