/**
 * @module The arguments `npm run start:prod` gives node (its runtime flags and the compiled server), read from
 * package.json, so the benches measure the command a publisher runs, flags included.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export function startProdArgs(root: string): string[] {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >
  const [node, ...args] = (scripts['start:prod'] ?? '').split(' ')
  if (node !== 'node') throw new Error(`start:prod should run node, not ${JSON.stringify(node)}`)
  return args
}
