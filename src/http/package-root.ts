/**
 * @module Finds the directory holding this code's package.json: the repository root when running from
 * `src/` (tsx) or from the compiled `dist/server/`, the package's folder when installed from the server
 * package. Files that ship beside the code (`drizzle/`, `dist/embed/`, `public/`) are found from there,
 * whatever depth the module was compiled to.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export function packageRoot(moduleUrl: string | URL): string {
  const start = dirname(fileURLToPath(moduleUrl))
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`No package.json above ${start}`)
  }
}
