/**
 * @module `npm run check:package`: publint (strict) and attw (ESM-only profile) on both packages that
 * `npm run pack` wrote to `dist/pack/`. `styles.css` is left out of attw: it is a stylesheet for bundlers
 * and `<link>`, with no JavaScript or types to resolve.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const PACK_DIR = join(ROOT, 'dist', 'pack')
const version = (await import(join(ROOT, 'package.json'), { with: { type: 'json' } })).default.version

const packages = [
  { dir: 'widget', tarball: `offer-widget-${version}.tgz`, attw: ['--exclude-entrypoints', './styles.css'] },
  { dir: 'server', tarball: `offer-widget-server-${version}.tgz`, attw: [] },
]

let failed = false
for (const { dir, tarball, attw } of packages) {
  const tarballPath = join(PACK_DIR, tarball)
  if (!existsSync(tarballPath)) {
    console.error(`check:package: ${tarball} missing: run \`npm run build && npm run pack\` first`)
    process.exit(1)
  }
  for (const [command, args] of [
    ['publint', ['--strict', join(PACK_DIR, dir)]],
    ['attw', [tarballPath, '--profile', 'esm-only', ...attw]],
  ] as const) {
    const result = spawnSync('npx', ['--no-install', command, ...args], { stdio: 'inherit', cwd: ROOT })
    if (result.status !== 0) {
      console.error(`check:package: ${command} failed on ${tarball}`)
      failed = true
    }
  }
}
process.exit(failed ? 1 : 0)
