/**
 * @module The browser builds made where the server's secrets are in the environment, as in a publisher's CI
 * that builds and deploys with `ENGINE_TOKEN` and `SESSION_SECRET` exported: the playground, the widget
 * package's code and the script-tag bundle, each built by its own Vite config into a scratch folder, carry
 * neither value nor either name. A config that handed the environment to the bundle (`define` of
 * `process.env`, `loadEnv` with an empty prefix) fails here. (The test of `dist/` as `npm run build` left
 * it cannot see a value: nobody builds there with one, so it looks for the names.)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO } from './support/scratch-project.ts'

const ENGINE_TOKEN = 'zz-build-env-engine-token-8f2a61c0'
const SESSION_SECRET = 'zz-build-env-session-secret-5e93b7d4aa01'
const scratch = mkdtempSync(join(tmpdir(), 'build-secrets-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** What browsers load: the playground, the widget package's code, the script-tag bundle. */
const BROWSER_BUILDS = [
  'config/vite.site.config.ts',
  'config/vite.widget.config.ts',
  'config/vite.embed.config.ts',
]

describe.each(BROWSER_BUILDS)('%s, built with the secrets in the environment', (config) => {
  it('carries neither secret nor its name', () => {
    const outDir = join(scratch, config)
    execFileSync(
      join(REPO, 'node_modules/.bin/vite'),
      ['build', '--config', config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: REPO, env: { ...process.env, ENGINE_TOKEN, SESSION_SECRET }, stdio: 'pipe' },
    )
    const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
      /\.(js|mjs|css|html|json)$/.test(file),
    )
    expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(0)
    for (const file of files) {
      const text = readFileSync(join(outDir, file), 'utf8')
      expect(text, file).not.toContain(ENGINE_TOKEN)
      expect(text, file).not.toContain(SESSION_SECRET)
      expect(text, file).not.toMatch(/ENGINE_TOKEN|SESSION_SECRET/)
    }
  })
})

describe('the browser builds `npm run build` and `npm run pack` left in dist/', () => {
  it('name neither secret: no browser code reads the server environment', () => {
    const dist = join(REPO, 'dist')
    // dist/server is the server, which reads them; everything else here is what browsers or front-ends load.
    const dirs = ['site', 'widget', 'embed', 'reports', 'types', 'pack/widget/dist', 'pack/widget/embed']
    const files = dirs.flatMap((dir) =>
      readdirSync(join(dist, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(js|mjs|css|html|json|ts)$/.test(file))
        .map((file) => join(dist, dir, file)),
    )
    expect(files.length).toBeGreaterThan(dirs.length)
    for (const file of files)
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/ENGINE_TOKEN|SESSION_SECRET/)
  })
})
