/**
 * @module The arguments `npm run start:prod` gives node (its runtime flags and the compiled server) and the
 * variables it sets, read from package.json, so the benches measure the command a publisher runs, flags included.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export function startProdArgs(root: string): string[] {
  return startProd(root).args
}

/** The variables `npm run start:prod` sets before node (`MALLOC_ARENA_MAX=2`), for a bench's spawn `env`. */
export function startProdEnv(root: string): Record<string, string> {
  return startProd(root).env
}

function startProd(root: string): { env: Record<string, string>; args: string[] } {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >
  const words = (scripts['start:prod'] ?? '').split(' ')
  const env: Record<string, string> = {}
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, value] = (words.shift() as string).split('=') as [string, string]
    env[name] = value
  }
  const [node, ...args] = words
  if (node !== 'node') throw new Error(`start:prod should run node, not ${JSON.stringify(node)}`)
  return { env, args }
}
