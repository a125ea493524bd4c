/**
 * @module The Worker recipe of docs/running-the-bff.md in Cloudflare's workerd (the npm registry's `workerd`),
 * bundled from the sources into one ES module as the documented esbuild command bundles the server package,
 * served with the documented `bff.capnp`: an offer search and its polls through it, against a sandbox upstream
 * in this Node process, the visitor's address from `cf-connecting-ip`.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { block } from '../docs/support/readme-blocks.ts'
import {
  freePort,
  REPO,
  type RecordingSandbox,
  type RunningRuntime,
  recipeFile,
  runtimeBin,
  SERVER_ENTRY_SOURCE,
  searchUntilComplete,
  startRecordingSandbox,
  startRuntime,
  upstreamEnv,
  VISITOR_UA,
} from './support/runtime-bff.ts'

const SOURCES = join(REPO, 'src/')

/**
 * The documented command's options, read from its block. Its flags are esbuild's CLI spelling of these; the
 * banner is taken as written.
 */
function documentedBuild() {
  const command = block('worker-build').code.replace(/\\\n\s*/g, '')
  const banner = /--banner:js="([^"]+)"/.exec(command)?.[1]
  expect(command).toMatch(
    /^npx esbuild worker\.ts --bundle --format=esm --platform=node --conditions=workerd,worker --outfile=worker\.js /,
  )
  return { banner: banner ?? '' }
}

let sandbox: RecordingSandbox
let workerd: RunningRuntime

beforeAll(async () => {
  sandbox = await startRecordingSandbox()
  const port = await freePort()
  const entry = recipeFile(block('worker').code, SERVER_ENTRY_SOURCE, 'worker.ts')
  const dir = dirname(entry)
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: ['workerd', 'worker'],
    outfile: join(dir, 'worker.js'),
    banner: { js: documentedBuild().banner },
    logLevel: 'warning',
    // The sources stand for the server package, which declares `"sideEffects": false` (scripts/pack.ts); the
    // repository's own package.json does not, so the sources are marked here as the package marks itself.
    plugins: [
      {
        name: 'server-package-side-effects',
        setup(bundler) {
          bundler.onResolve({ filter: /^(\.\.?)?\// }, (args) => {
            const path = resolve(args.resolveDir, args.path)
            return path.startsWith(SOURCES) ? { path, sideEffects: false } : undefined
          })
        },
      },
    ],
  })
  writeFileSync(join(dir, 'bff.capnp'), block('workerd-config').code)
  workerd = await startRuntime(
    runtimeBin('workerd'),
    ['serve', join(dir, 'bff.capnp'), '--socket-addr', `http=127.0.0.1:${port}`],
    { env: upstreamEnv(sandbox, port), port, cwd: dir },
  )
}, 90_000)

afterAll(async () => {
  await workerd?.stop()
  await sandbox?.close()
})

describe('workerd', () => {
  it('serves an offer search and its polls until complete, the visitor from cf-connecting-ip', async () => {
    const { created, polls, rateTable } = await searchUntilComplete(workerd.url, {
      'cf-connecting-ip': '203.0.113.9',
    })
    expect(created.status, workerd.output()).toBe(201)
    expect(polls).toBeGreaterThan(0)
    expect(rateTable.offers.length).toBeGreaterThan(0)
    expect(sandbox.visitors).toEqual([{ ipAddress: '203.0.113.9', userAgent: VISITOR_UA }])
  }, 60_000)

  it('refuses a search that carries no visitor address rather than make one up', async () => {
    const before = sandbox.visitors.length
    const { created } = await searchUntilComplete(workerd.url)
    expect(created.status).toBeGreaterThanOrEqual(400)
    expect(sandbox.visitors).toHaveLength(before)
  })
})
