/**
 * @module Whether a build is missing or older than its sources, for `npm start`'s prestart and `npm run pack`:
 * both rebuild only then, so a build that is current costs nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestMtime(join(path, name))),
    stat.mtimeMs,
  )
}

/** `missing` when an output does not exist, `stale` when one is older than the newest source, else `current`. */
export function buildState(sources: string[], outputs: string[]): 'missing' | 'stale' | 'current' {
  if (!outputs.every((path) => existsSync(path))) return 'missing'
  const oldestOutput = Math.min(...outputs.map((path) => statSync(path).mtimeMs))
  return Math.max(...sources.map(newestMtime)) > oldestOutput ? 'stale' : 'current'
}
