/**
 * @module What a test needs to start this repository's code as a child process the way `npm start` does,
 * in a working directory of its own: the server reads `.env` from its working directory, and a developer's
 * `.env` (an ENGINE_TOKEN, say) must never reach a test's server. `--import tsx` resolves from the working
 * directory, so tsx's loader goes by URL.
 */
import { mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

export const REPO = resolve(import.meta.dirname, '../..')

/** `node --import <this> file.ts` runs TypeScript sources, whatever the child's working directory. */
export const TSX_IMPORT = pathToFileURL(createRequire(join(REPO, 'package.json')).resolve('tsx')).href

/** A fresh, empty working directory (no `.env`). */
export function scratchCwd(): string {
  return mkdtempSync(join(tmpdir(), 'offer-widget-cwd-'))
}
