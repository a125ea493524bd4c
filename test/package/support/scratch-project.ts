/**
 * @module Scratch projects for the package tests: a directory outside the repository with its own
 * package.json, into which npm installs a tarball (and whatever else a consumer brings) from the registry
 * or npm's cache, as a user's project would.
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const execFileAsync = promisify(execFile)

export const REPO = resolve(import.meta.dirname, '../../..')
const PACK_DIR = join(REPO, 'dist/pack')

/** A tarball `npm run pack` wrote, e.g. `tarball('offer-widget-server')`. */
export function tarball(name: string): string {
  const pattern = new RegExp(`^${name}-\\d+\\.\\d+\\.\\d+.*\\.tgz$`)
  const file = existsSync(PACK_DIR) ? readdirSync(PACK_DIR).find((entry) => pattern.test(entry)) : undefined
  if (!file) throw new Error(`${name} tarball missing: run \`npm run build && npm run pack\` first`)
  return join(PACK_DIR, file)
}

export function scratchProject(prefix: string, install: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`))
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  )
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...install], {
    cwd: dir,
    stdio: 'pipe',
  })
  return dir
}

interface TreeNode {
  version?: string
  dependencies?: Record<string, TreeNode>
}

/** Every package of the project's installed tree (`npm ls --all`), with the version each place holds. */
function installedTree(dir: string): Array<{ name: string; version: string | undefined }> {
  const tree = JSON.parse(
    execFileSync('npm', ['ls', '--all', '--json'], { cwd: dir, encoding: 'utf8' }),
  ) as TreeNode
  const found: Array<{ name: string; version: string | undefined }> = []
  const walk = (deps: Record<string, TreeNode> | undefined) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      found.push({ name, version: node.version })
      walk(node.dependencies)
    }
  }
  walk(tree.dependencies)
  return found
}

/** Every package name in the project's installed tree. */
export function installedNames(dir: string): Set<string> {
  return new Set(installedTree(dir).map((entry) => entry.name))
}

/** The versions of `name` the installed tree holds, one per place it is required from (deduped ones repeat). */
export function installedVersions(dir: string, name: string): string[] {
  return installedTree(dir)
    .filter((entry) => entry.name === name)
    .map((entry) => entry.version ?? 'missing')
}

/** Bytes of the files under `path` (links not followed), for the install sizes the tests print. */
export function diskBytes(path: string): number {
  const stat = lstatSync(path)
  if (!stat.isDirectory()) return stat.size
  return readdirSync(path).reduce((sum, name) => sum + diskBytes(join(path, name)), 0)
}

export function removeScratch(dir: string): void {
  if (dir) rmSync(dir, { recursive: true, force: true })
}

/**
 * Runs `node file` in the project and parses the last line it prints as JSON. Asynchronous, so a server
 * in the test's own process keeps answering it.
 */
export async function runNode<T>(dir: string, file: string, env: Record<string, string> = {}): Promise<T> {
  const { stdout } = await execFileAsync(process.execPath, [file], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
    timeout: 60_000,
  })
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as T
}
