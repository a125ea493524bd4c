/**
 * @module The server package as a publisher's backend gets it: its tarball installed alone into a scratch
 * project and imported by name from plain Node (no tsx, no TypeScript): `createBff(...).fetch` answers an
 * offer search against the package's own sandbox over HTTP, `startServer` serves the script-tag bundle it
 * ships, the marketplace and partner kit load by subpath, and the `offer-widget` CLI runs.
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  diskBytes,
  installedNames,
  removeScratch,
  runNode,
  scratchProject,
  tarball,
} from './support/scratch-project.ts'

const CONSUMER = `
import { createBff, loadConfig, serveSandbox, startServer } from 'offer-widget-server'
import { createMarketplace, runAuction } from 'offer-widget-server/marketplace'
import { openLedger } from 'offer-widget-server/ledger'
import { checkPartner, createReferencePartner } from 'offer-widget-server/partner-kit'

const sandbox = await serveSandbox({ port: 0 })
const config = loadConfig({
  ENGINE_TOKEN: 'sandbox-test-token',
  ENGINE_ENV: 'test',
  ENGINE_BASE_URL_TEST: sandbox.url + '/test',
  SESSION_SECRET: 'da1e549ae9e8bd9797dae74b1c80043e7951092e40f05090c240c798f5187197',
  PUBLIC_BASE_URL: 'https://offers.example.com',
  LOG_LEVEL: 'warn',
})
// A visitor's browser: a bare "Mozilla/5.0" is a declared bot and gets 403 before any search.
const VISITOR_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const app = createBff(config, { getSocketAddress: () => '203.0.113.7' })
const created = await app.fetch(
  new Request('https://offers.example.com/api/offer-searches', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-offer-widget': 'package-test', 'user-agent': VISITOR_UA },
    body: JSON.stringify({ personalInformation: { zipCode: '00001' } }),
  }),
)
const body = await created.json()
const polled = await app.fetch(
  new Request('https://offers.example.com/api/offer-searches/' + body.rateTable.uuid, {
    headers: { 'x-offer-access-token': body.accessToken, 'user-agent': VISITOR_UA },
  }),
)
await app.close()
await sandbox.close()

const server = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'warn' }), { secondLook: false })
const manifest = await (await fetch(server.url + '/embed/manifest.json')).json()
const bundle = await fetch(server.url + manifest.src)
await server.close()

console.log(JSON.stringify({
  created: created.status,
  polled: polled.status,
  uuid: (await polled.json()).uuid === body.rateTable.uuid,
  bundle: bundle.status,
  exports: [createMarketplace, runAuction, openLedger, checkPartner, createReferencePartner].map((f) => typeof f),
}))
process.exit(0)
`

const execFileAsync = promisify(execFile)
let dir = ''

beforeAll(() => {
  dir = scratchProject('offer-widget-server', [tarball('offer-widget-server')])
})

afterAll(() => removeScratch(dir))

describe('offer-widget-server installed alone', () => {
  it('brings no browser or build tooling', () => {
    const names = installedNames(dir)
    for (const name of [
      'react',
      'react-dom',
      '@tanstack/react-query',
      'tsx',
      'typescript',
      'vite',
      'esbuild',
    ]) {
      expect(names, name).not.toContain(name)
    }
    expect(names).toContain('hono')
    const kib = (path: string) => `${(diskBytes(join(dir, 'node_modules', path)) / 1024).toFixed(0)} KiB`
    console.log(
      `offer-widget-server install: node_modules ${kib('')} (PGlite ${kib('@electric-sql/pglite')}), the package itself ${kib('offer-widget-server')}`,
    )
  })

  it('answers a search through createBff(...).fetch and serves its bundle from startServer', async () => {
    writeFileSync(join(dir, 'serve.mjs'), CONSUMER)
    const out = await runNode<{
      created: number
      polled: number
      uuid: boolean
      bundle: number
      exports: string[]
    }>(dir, 'serve.mjs')
    expect(out).toEqual({
      created: 201,
      polled: 200,
      uuid: true,
      bundle: 200,
      exports: ['function', 'function', 'function', 'function', 'function'],
    })
  })

  it('runs the offer-widget CLI from the compiled code', async () => {
    const { stdout } = await execFileAsync('npx', ['--no-install', 'offer-widget', '--help'], {
      cwd: dir,
      encoding: 'utf8',
    })
    expect(stdout).toContain('check-partner')
  })
})
