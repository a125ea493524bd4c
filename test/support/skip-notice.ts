/**
 * @module Announces tests skipped for want of configuration (a database, Redis, a directory). The notice
 * goes to the console with a marker; in `npm test`, `skip-summary.ts` takes it out of each file's output and
 * prints every reason once, in one line after the run's summary. Anywhere else it prints as it is.
 */

const SKIP_MARKER = '[skipped] '
const BECAUSE = ' because '

/** `tests`: what is skipped ("the Redis coalescing tests"); `reason`: why, with the fix ("REDIS_URL is unset (...)"). */
export function announceSkip(tests: string, reason: string): void {
  console.warn(`${SKIP_MARKER}${tests}${BECAUSE}${reason}`)
}

/** The reason for tests that need an environment variable: names it and how to set it. */
export function unsetVariable(name: string, example: string): string {
  return `${name} is unset (run with ${name}=${example}; .ci/run sets it)`
}

/** The notice a console line carries, if any. */
export function parseSkipNotice(line: string): { tests: string; reason: string } | undefined {
  if (!line.startsWith(SKIP_MARKER)) return undefined
  const text = line.slice(SKIP_MARKER.length).trim()
  const at = text.indexOf(BECAUSE)
  if (at < 0) return { tests: text, reason: 'unknown' }
  return { tests: text.slice(0, at), reason: text.slice(at + BECAUSE.length) }
}
